import { stripVTControlCharacters } from 'node:util'
import type { Detection } from './types.js'

// Message formats: CPython Lib/importlib/_bootstrap.py (3.6–3.13), Python 2's `No module named x`, pytest's `E   `
// prefix. Only the final uncaught exception counts: a traceback a script printed and handled (logging.exception),
// or an optional import tried first (`try: import ujson`), must not make resilient install anything.
const EXCEPTION_LINE = /^(?:E\s+)?([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt))(?::\s?(.*))?$/
const NO_MODULE = /^No module named '?([\w.]+)'?(?:; '([\w.]+)' is not a package)?$/
const NAMESPACE_NAME = /^cannot import name '(\w+)' from '([\w.]+)' \(unknown location\)$/
const CHAIN_SEPARATOR = /^(The above exception was the direct cause of the following exception:|During handling of the above exception, another exception occurred:)$/

/** The script's output as lines, without colours (Python 3.13 colours tracebacks in a terminal) or carriage returns. */
export function outputLines(output: string): string[] {
  return stripVTControlCharacters(output).replace(/\r\n?/g, '\n').split('\n').map(line => line.trimEnd())
}

function lastExceptionIndex(lines: string[], before = lines.length): number {
  for (let i = before - 1; i >= 0; i--) if (EXCEPTION_LINE.test(lines[i]!) && !/^\s/.test(lines[i]!)) return i
  return -1
}

/** `import google.protobuf` and `from google.cloud import storage` name more than the message does: read them. */
export function importedNames(sourceLine: string): string[] {
  const line = sourceLine.trim().replace(/#.*$/, '').trim()
  const plain = /^import\s+(.+)$/.exec(line)
  if (plain) return plain[1]!.split(',').map(part => part.trim().split(/\s+as\s+/)[0]!.trim())
  const from = /^from\s+([\w.]+)\s+import\s+\(?([^)]*)\)?$/.exec(line)
  if (!from) return []
  const names = from[2]!.split(',').map(part => part.trim().split(/\s+as\s+/)[0]!.trim()).filter(name => /^\w+$/.test(name))
  return names.length ? names.map(name => `${from[1]}.${name}`) : [from[1]!]
}

/** The source line and the file shown just above the error line (the traceback's innermost frame). */
function frameAbove(lines: string[], index: number): { source?: string; file?: string } {
  let i = index - 1
  while (i >= 0 && /^\s*[~^]+\s*$|^\s*$/.test(lines[i]!)) i--
  const source = /^\s+\S/.test(lines[i] ?? '') ? lines[i]!.trim() : undefined
  const header = lines[i - 1] ?? ''
  const file = /^\s*File "([^"]+)", line \d+/.exec(header)?.[1] ?? /^([^\s:][^:]*\.py):\d+: in /.exec(header)?.[1]
  return { source, file }
}

function missing(reported: string, lines: string[], index: number, parentImported: boolean): Detection {
  const { source, file } = frameAbove(lines, index)
  const longer = source ? importedNames(source).find(name => name === reported || name.startsWith(`${reported}.`)) : undefined
  const evidence = [source, lines[index]!.replace(/^E\s+/, '')].filter((line): line is string => Boolean(line))
  return { kind: 'missing', module: { ecosystem: 'python', reported, name: longer ?? reported, parentImported, importer: file, evidence } }
}

function refusal(reason: string, hint: string | undefined, line: string): Detection {
  return { kind: 'not-installable', refusal: { reason, hint, evidence: [line] } }
}

/** The module a Python script failed to import, from its output; undefined when its final error is something else. */
export function detectPythonMissing(output: string): Detection | undefined {
  const lines = outputLines(output)
  let index = lastExceptionIndex(lines)
  if (index < 0) return undefined
  let [, type, message = ''] = EXCEPTION_LINE.exec(lines[index]!)!
  // A library that wraps the real error (`raise ImportError("Missing optional dependency 'openpyxl'") from e`):
  // the interpreter's own ModuleNotFoundError sits just above the chain separator.
  if (type === 'ImportError' && !NO_MODULE.test(message) && !NAMESPACE_NAME.test(message)) {
    let separator = index - 1
    while (separator > 0 && !CHAIN_SEPARATOR.test(lines[separator]!)) separator--
    const inner = separator > 0 ? lastExceptionIndex(lines, separator) : -1
    if (inner >= 0 && /^(?:E\s+)?ModuleNotFoundError: /.test(lines[inner]!)) {
      index = inner
      ;[, type, message = ''] = EXCEPTION_LINE.exec(lines[index]!)!
    }
  }
  if (type !== 'ModuleNotFoundError' && type !== 'ImportError') return undefined
  const line = lines[index]!
  const noModule = NO_MODULE.exec(message)
  if (noModule) {
    const [, name, notPackage] = noModule
    if (notPackage) return refusal(`"${notPackage}" is a module, not a package, so "${name}" cannot be below it.`, `A local file named ${notPackage}.py probably hides the real package: rename it.`, line)
    return missing(name!, lines, index, name!.includes('.'))
  }
  const namespace = NAMESPACE_NAME.exec(message)
  if (namespace) return missing(`${namespace[2]}.${namespace[1]}`, lines, index, true)
  if (/^import of \S+ halted; None in sys\.modules$/.test(message)) return refusal('The script blocks this import on purpose (sys.modules holds None for it).', undefined, line)
  if (/attempted relative import/.test(message)) return refusal('A relative import failed: the file was run as a script, not as part of its package.', 'Run it as a module from the project root: python -m package.module.', line)
  if (/^cannot import name /.test(message)) {
    return refusal('The module is installed but has no such name: a version mismatch or a circular import, not a missing package.', 'Check the installed version against the one the code expects.', line)
  }
  return undefined
}

/**
 * pytest catches a test module's failed import and reports it (on stdout) as a collection error, then stops the
 * session: the script's own final error, told in pytest's words (`E   ModuleNotFoundError: ...`). Only the last
 * such report counts, and only its own block.
 */
export function detectPytestCollection(output: string): Detection | undefined {
  const lines = outputLines(output)
  let start = lines.length - 1
  while (start >= 0 && !/^ImportError while importing test module '/.test(lines[start]!)) start--
  if (start < 0) return undefined
  let end = start + 1
  while (end < lines.length && !/^(={3,}|_{3,}) /.test(lines[end]!)) end++
  return detectPythonMissing(lines.slice(start, end).join('\n'))
}
