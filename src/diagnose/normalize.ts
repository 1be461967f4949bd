import { stripSequences } from '../secrets/printable.js'
import { annotateErrno } from './errno.js'
import type { Failure, NormalizedFailure } from './types.js'

// Linear-time patterns only (no nested quantifiers, no `.*` between two tokens): the engine must survive 10 MB of
// adversarial input. Input beyond these bounds is cut: failures are reported at the end of the output, and the retry
// loop keeps the same 256 KiB tail of the child's output (src/exec/run-child.ts).
export const MAX_INPUT_CHARS = 256 * 1024
export const MAX_LINE_CHARS = 4096

const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g

/** What CI systems, containers and log collectors put before each line of the tool's own output. */
const PREFIXES: readonly RegExp[] = [
  /^npm (?:ERR!|error|warn|WARN|notice|verb|verbose|http|info|timing|silly) ?/,
  /^\d{1,6} (?:verbose|info|silly|http|error|warn|timing|notice) /, // npm-debug.log line numbers
  /^verbose \d+\.\d+ /, // yarn --verbose
  /^(?:error|warning|critical|info|debug|trace) +(?:libmamba|libcurl) +(?:\* )?/,
  /^#\d{1,4} \d{1,6}(?:\.\d{1,4})? /, // docker buildkit: `#10 18.23 `
  /^\d{1,5}\.\d{1,4} /, // docker buildkit plain progress: `102.6 `
  /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z? ?/, // GitHub Actions
  /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \| /, // devstack, Zuul
  /^\[\d{4}-\d\d-\d\dT[\d:.]+Z? (?:TRACE|DEBUG|INFO|WARN|ERROR) [\w:]+\] /, // env_logger (cargo, rattler)
  /^\[?\d\d:\d\d:\d\d(?:\.\d+)?\]? /, // Jenkins timestamper, `[12:01:02]`
  /^[\w.-]{1,60}\[\d{1,8}\]: ?(?:\d{4}-\d\d-\d\dT[\d:.]+Z: ?)?/, // syslog-style `prog[pid]:`
  /^[\w.-]{1,60}-\d{1,3} +\| /, // docker compose `service-1   | `
  /^ {0,8}(?:docker|amazon-ebs|googlecompute|azure-arm|qemu|vagrant|virtualbox-iso): /, // packer builders
  /^DEBUG ssh: (?:stdout|stderr): /, // vagrant provisioners
  /^> ?/, // quoted in a Markdown issue
  /^##\[(?:error|warning|debug|notice|group|endgroup)\] ?/, // GitHub Actions annotations
  /^ {0,2}(?:TRACE|DEBUG|INFO|WARN) +/, // tracing output of uv and pixi (the message itself follows)
]
/** All prefixes as one pattern: one match per line and pass instead of one per prefix. */
const PREFIX = new RegExp(`^(?:${PREFIXES.map(prefix => prefix.source.slice(1)).join('|')})`)
/** yarn berry: `➤ YN0018: │ message`. The code stays (it names the failure); the decorations go. */
const YARN_BERRY = /^(?:➤ )?(YN\d{4}): (?:[│└├┌─] ?){0,8}/

/** Source-code excerpts that poetry (cleo) prints with its errors: `    → 941│ raise HTTPError(...)`. */
const CODE_EXCERPT = /^\s{0,12}(?:→\s{0,4})?\d{1,6}│/
const TRACEBACK_FRAME = /^(\s*)File "[^"\n]{0,1000}", line \d+/

/** Lines that start a fresh log record: never the continuation of a hard-wrapped line. */
const FRESH_LINE = /^(?:npm |yarn |pnpm |gyp |WARNING|ERROR|error|warning|info|debug|Collecting|Downloading|Retrying|Traceback|#\d|\d{4}-\d\d-\d\d)/

function decode(output: string): string {
  let text = output.length > MAX_INPUT_CHARS ? output.slice(-MAX_INPUT_CHARS) : output
  // A log stored as a JSON string: its newlines are escaped. Unescape when the escapes outnumber real newlines.
  const escaped = text.split('\\n').length - 1
  if (escaped >= 2 && escaped > text.split('\n').length - 1) {
    text = text.replace(/\\r\\n|\\n/g, '\n').replace(/\\t/g, '\t').replace(/\\u001b|\\x1b/gi, '\x1b').replace(/\\"/g, '"')
  }
  // To a fixed point: `\x1b[\x1b[2J2J` must not rebuild a screen clear in `why` or a stored log.
  return stripSequences(text.replace(ANSI, ''))
}

/** A progress bar redraws its line with \r: keep what was drawn last. */
function lastDrawn(line: string): string {
  if (!line.includes('\r')) return line
  const parts = line.split('\r')
  for (let index = parts.length - 1; index >= 0; index--) if (parts[index]!.trim()) return parts[index]!
  return ''
}

function stripPrefixes(line: string): string {
  // A prefix alone (`#10 18.23`, `[12:01:02]`, its space trimmed with the line's end) stands for a blank line of the
  // tool's own: kept blank, so that a chain with blank lines inside (uv's hints below `╰─▶`) stays one chain.
  if (!`${line} `.replace(PREFIX, '').trim()) return ''
  let current = line
  for (let pass = 0; pass < 3; pass++) {
    const before = current
    current = current.replace(PREFIX, '').replace(YARN_BERRY, '$1: ')
    if (current === before) break
  }
  return current
}

/**
 * Consoles hard-wrap at 80 columns (cmd.exe, old pip), splitting words and URLs mid-way. A line of exactly 79-80
 * characters is joined with the next when the next does not start a fresh record or an indented block.
 */
function joinHardWraps(lines: string[]): string[] {
  const joined: string[] = []
  let previousLength = 0
  for (const line of lines) {
    const wrapped = previousLength >= 79 && previousLength <= 80 && line !== '' && !/^\s/.test(line) && !FRESH_LINE.test(line)
    if (wrapped && joined.length) joined[joined.length - 1] += line
    else joined.push(line)
    previousLength = line.length
  }
  return joined
}

/** Drops source code quoted in tracebacks and poetry's error excerpts: code is never evidence, and it misleads. */
function dropQuotedCode(lines: string[]): string[] {
  const kept: string[] = []
  let frameIndent = -1
  for (const line of lines) {
    if (CODE_EXCERPT.test(line)) continue
    const indent = line.length - line.trimStart().length
    if (frameIndent >= 0 && indent > frameIndent && line.trim()) {
      frameIndent = -1
      continue
    }
    frameIndent = TRACEBACK_FRAME.exec(line)?.[1]?.length ?? -1
    kept.push(line)
  }
  return kept
}

/**
 * pip -vv follows an error it has already worded with "Exception information:" and the traceback of its own control
 * flow (cli/base_command.py logs it at debug level): resolvelib's RequirementsConflicted and ResolutionImpossible behind
 * every "No matching distribution", which no rule may read as a conflict. Dropped up to pip's next line.
 */
function dropRestatedTraceback(lines: string[]): string[] {
  const kept: string[] = []
  let restating = false
  let afterFrame = false
  for (const line of lines) {
    if (line === 'Exception information:') {
      restating = true
      continue
    }
    if (restating) {
      const topLevel = line !== '' && !/^\s/.test(line)
      const structural = !topLevel || /^Traceback \(most recent call last\):$|^(?:The above exception was the direct cause|During handling of the above exception)/.test(line)
      // The exception line itself follows the frames, at the top level.
      if (structural || afterFrame) {
        afterFrame = /^\s/.test(line) && line.trim() !== ''
        continue
      }
      restating = false
    }
    kept.push(line)
  }
  return kept
}

/** Strips what differs between terminals, CI systems and tool versions, keeping the words the rules read. */
export function normalizeLines(output: string): string[] {
  const raw: string[] = []
  for (const line of decode(output).split('\n')) {
    const drawn = lastDrawn(line.endsWith('\r') ? line.slice(0, -1) : line).trimEnd()
    // Runs of blank lines say nothing; one is kept (it still separates blocks).
    if (drawn || raw.at(-1) !== '') raw.push(drawn)
  }
  const lines = joinHardWraps(raw).map(line => (line ? annotateErrno(stripPrefixes(line.slice(0, MAX_LINE_CHARS)).trimEnd()) : line))
  return dropRestatedTraceback(dropQuotedCode(lines))
}

export function normalizeOutput(output: string): string {
  return normalizeLines(output).join('\n')
}

export function normalizeFailure(failure: Failure): NormalizedFailure {
  const lines = normalizeLines(failure.output)
  return { ...failure, text: lines.join('\n'), lines }
}
