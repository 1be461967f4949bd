import { closeSync, openSync, readSync, statSync } from 'node:fs'
import { diagnose, DIAGNOSED_TOOLS, guessTool, toolNamed, type Diagnosis } from '../../diagnose/index.js'
import { proxiesFromEnvironment } from '../../proxies.js'
import { RULES } from '../../diagnose/rules/index.js'
import { TOOLS } from '../../tools/index.js'
import { MAX_INPUT_CHARS } from '../../diagnose/normalize.js'
import { ResilientError, EXIT, UsageError } from '../../errors.js'
import { TailBuffer } from '../../diagnose/tail-buffer.js'
import { printable, redact } from '../../redact.js'
import { ownText } from '../../own-text.js'
import { loadConfig } from '../../config/load.js'
import { adviceSubject } from '../../diagnose/remedies.js'
import { adviceFor } from '../../tools/advice.js'
import { failingIndex } from './why-index.js'
import { normalizeLines } from '../../diagnose/normalize.js'

type FailingIndex = NonNullable<ReturnType<typeof failingIndex>>

export interface WhyOptions {
  tool?: string
  json?: boolean
}

// The engine reads the last 256 KiB of a log (failures are reported at the end); reading more would only cost
// memory on a gigabyte CI log.
const TAIL_BYTES = MAX_INPUT_CHARS

function readFileTail(file: string): Buffer {
  try {
    const size = statSync(file).size
    const length = Math.min(size, TAIL_BYTES)
    const buffer = Buffer.alloc(length)
    const fd = openSync(file, 'r')
    try {
      readSync(fd, buffer, 0, length, size - length)
    } finally {
      closeSync(fd)
    }
    return buffer
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const reason = code === 'ENOENT' ? 'it does not exist' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : (error as Error).message
    throw new ResilientError(`Cannot read the log ${file}: ${reason}.`, EXIT.usage, 'Give the path of a saved log, or pipe the log in: resilient why < build.log')
  }
}

async function readInput(file: string | undefined): Promise<Buffer> {
  if (file && file !== '-') return readFileTail(file)
  if (process.stdin.isTTY) throw new ResilientError('No log given.', EXIT.usage, 'Give a file (resilient why build.log) or pipe a log in (pip install x 2>&1 | resilient why).')
  const tail = new TailBuffer(TAIL_BYTES)
  for await (const chunk of process.stdin) tail.push(chunk as Buffer)
  return Buffer.from(tail.toString(), 'utf8')
}

/**
 * The log as text. PowerShell 5 redirects (`pip install x > build.log`) write UTF-16 with a BOM; anything else with
 * NUL bytes, or with many bytes that are neither printable nor whitespace, is not a log.
 */
function decodeLog(bytes: Buffer): string | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le')
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return Buffer.from(bytes.subarray(2)).swap16().toString('utf16le')
  const sample = bytes.subarray(0, 8192)
  if (sample.includes(0)) return undefined
  let control = 0
  for (const byte of sample) if (byte < 32 && ![8, 9, 10, 12, 13, 27].includes(byte)) control++
  return control > sample.length * 0.1 ? undefined : bytes.toString('utf8')
}

function toolFor(options: WhyOptions, text: string): { tool: string | null; guessed: boolean } {
  if (!options.tool) return { tool: guessTool(text), guessed: true }
  const tool = toolNamed(options.tool)
  if (!tool) throw new UsageError(`resilient why does not know the tool "${options.tool}".`, `Known tools: ${DIAGNOSED_TOOLS.join(', ')}. Leave --tool out to let resilient guess.`)
  return { tool, guessed: false }
}

const REMEDY_WORDS: Record<Diagnosis['remedy']['kind'], string> = {
  retry: 'retry the same index after a pause',
  'switch-mirror': 'retry on another mirror',
  wait: 'wait as the index asks, or use another mirror',
  upstream: 'try the upstream index once (a mirror may lag)',
  'give-up': 'you must act',
}

/**
 * Whether another attempt can help, and why; the facts can overrule the category (a private index's 401). On the
 * person's own index it says what a run does there: tries that index again, never a mirror.
 */
function retryVerdict(diagnosis: Diagnosis, index: FailingIndex | undefined): string {
  const host = index?.host
  if (index?.isPublic === false && diagnosis.retryable && diagnosis.remedy.kind !== 'retry') {
    return `a retry of ${host} can help; another mirror cannot: ${host} is not a public index resilient knows, so a run never sends its installs elsewhere (dependency confusion)`
  }
  if (index?.isPublic === false && diagnosis.category === 'package_not_found') return `cannot help (${host}, your own index, does not list it)`
  if (diagnosis.retryable) return `can help (${REMEDY_WORDS[diagnosis.remedy.kind]})`
  if (diagnosis.remedy.kind === 'give-up') return `cannot help (${REMEDY_WORDS['give-up']})`
  if (diagnosis.category === 'http_auth') return 'cannot help unless the host is a public mirror (a private index wants credentials)'
  if (diagnosis.category === 'package_not_found') return 'cannot help unless a mirror answered (the upstream index would lack it too)'
  return `cannot help (${REMEDY_WORDS[diagnosis.remedy.kind]})`
}

/** The tools whose wording the rule reads, when it reads one family's only (`yarn-no-matching-version`: yarn). */
function ruleTools(ruleId: string): readonly string[] {
  const tools = RULES.find(rule => rule.id === ruleId)?.tools
  return tools && tools !== 'any' ? tools : []
}

/** Which tool wrote the log: the one given or guessed, else the one whose wording the rule read. */
function toolLine(diagnosis: Diagnosis, tool: string | null, guessed: boolean): string {
  if (tool) return `${tool}${guessed ? ' (guessed from the log)' : ''}`
  const family = ruleTools(diagnosis.ruleId)
  return family.length ? `${family.join(' or ')} (read from the rule's wording)` : 'unknown (no tool-specific rules applied)'
}

/**
 * `resilient <tool> ...` only for a tool resilient wraps: never `resilient node` or `resilient python`. For a failure
 * of the person's own index, the advice a run gives there (src/retry/attempts-loop.ts): nothing installed from
 * elsewhere.
 */
function nextStepFor(diagnosis: Diagnosis, tool: string | null, index: FailingIndex | undefined): string | undefined {
  const wrapped = tool && tool in TOOLS ? tool : ruleTools(diagnosis.ruleId).find(name => name in TOOLS && ruleTools(diagnosis.ruleId).length === 1)
  if (index?.isPublic === false) {
    const subject = adviceSubject(diagnosis)
    const own = wrapped && subject ? adviceFor(TOOLS[wrapped as keyof typeof TOOLS], { ...subject, host: index.host }, false) : undefined
    if (!diagnosis.retryable) return own ?? diagnosis.nextStep
    const through = wrapped ? ` Through resilient (resilient ${wrapped} <args>), it is tried again, never replaced by a public mirror.` : ''
    return `${own ?? `${index.host} is your own index: check that it is up and reachable from here.`}${through}`
  }
  return wrapped ? diagnosis.nextStep?.replaceAll('<tool>', wrapped) : diagnosis.nextStep
}

function explain(diagnosis: Diagnosis, tool: string | null, guessed: boolean, index: FailingIndex | undefined): string {
  const source = toolLine(diagnosis, tool, guessed)
  // `[category]`, never `category:`: redact() masks whatever follows `_auth:` (npm's `_auth=` setting).
  const lines = [`${diagnosis.summary}  [${diagnosis.category}]`, `  tool: ${source} · rule: ${diagnosis.ruleId}`]
  const role = index?.isPublic === false ? 'your own index' : diagnosis.facts.hostRole
  const host = diagnosis.facts.host ?? index?.host
  if (host) lines.push(`  host: ${host}${role ? ` (${role})` : ''}`)
  if (diagnosis.evidence.length) lines.push('  evidence:', ...diagnosis.evidence.map(line => `    │ ${line}`))
  lines.push(`  retry or another mirror: ${retryVerdict(diagnosis, index)}`)
  const nextStep = nextStepFor(diagnosis, tool, index)
  if (nextStep) lines.push(`  next step: ${nextStep}`)
  return lines.join('\n')
}

/** `resilient why [--tool] [--json] [file]`: explains a saved failure log. Exit 0 when explained, 64 without a readable text log. */
export async function runWhy(file: string | undefined, options: WhyOptions): Promise<number> {
  const bytes = await readInput(file)
  const name = file && file !== '-' ? `The log ${file}` : 'The log on stdin'
  const text = decodeLog(bytes)
  if (text === undefined) throw new ResilientError(`${name} is binary, not a text log.`, EXIT.usage, 'Give the text the command printed (its stdout and stderr), not a compressed or binary file; gunzip a .gz log first.')
  if (!text.trim()) throw new ResilientError(`${name} is empty.`, EXIT.usage, "Save the failing command's output with 2>&1 (pip install x > build.log 2>&1), then run resilient why build.log.")
  const { tool, guessed } = toolFor(options, text)
  // The proxies of this environment: a failure is called the proxy's only at one of their addresses.
  const diagnosis = diagnose({ tool, output: text, proxies: proxiesFromEnvironment(process.env) })
  // The config names indexes and mirrors of the person's own that a run may use: read as a run reads it.
  const { config } = await loadConfig({ cwd: process.cwd(), env: process.env, tolerant: true })
  const index = failingIndex(diagnosis, tool, config, normalizeLines(text))
  if (options.json) {
    process.stdout.write(`${redact(JSON.stringify({ category: diagnosis.category, retryable: diagnosis.retryable, remedy: diagnosis.remedy.kind,
      summary: diagnosis.summary, evidence: diagnosis.evidence, host: diagnosis.facts.host ?? null,
      index: index ? (index.isPublic ? 'public' : 'own') : null, mirrorCanHelp: diagnosis.retryable && index?.isPublic !== false && diagnosis.remedy.kind !== 'retry', tool }))}\n`)
    return 0
  }
  process.stdout.write(`${ownText(printable(redact(explain(diagnosis, tool, guessed, index)), { multiline: true }))}\n`)
  return 0
}
