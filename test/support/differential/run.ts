import { execa } from 'execa'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { constants, tmpdir } from 'node:os'
import { join } from 'node:path'
import { CASES, type DifferentialCase, type Topology } from './cases.js'
import { SUBJECTS, type IndexServer, type Subject } from './subjects.js'
import { judge, type RunOutcome, type Verdict } from './verdict.js'

export interface MatrixOptions {
  /** Node's entry of the built CLI (bin/resilient.js). */
  cli: string
  /** A fresh environment for one run of `tool` (no settings of the machine, its own HOME and caches; the tool on PATH). */
  env(tool: Subject['tool']): Record<string, string>
  /** How many cases run at once (each runs the plain tool and resilient side by side). */
  concurrency?: number
  /** Slower than the plain tool by more than this, where it succeeded, is a lost case. */
  slackMs?: number
  /**
   * A share of the plain tool's own time added to `slackMs`: side by side on a loaded machine both runs are stretched,
   * and resilient's own work (its process, the relay) by as much as the tool's. 0 (the bench's) by default.
   */
  slackShare?: number
  /** Which cases to run; all by default. */
  only?: (entry: MatrixEntry) => boolean
  /** The plain tool first, then resilient, instead of both at once: for timings (`npm run bench`), not for speed. */
  sequential?: boolean
}

export interface MatrixEntry {
  case: DifferentialCase
  tool: Subject['tool']
  topology: Topology
}

export interface CaseResult {
  id: string
  fault: string
  tool: Subject['tool']
  topology: Topology
  plain: RunOutcome
  resilient: RunOutcome & { attempts: number; output: string }
  verdict: Verdict
  why: string
}

/** Every (case, tool, topology) of the matrix. */
export function matrixEntries(cases: readonly DifferentialCase[] = CASES): MatrixEntry[] {
  return cases.flatMap(entry => entry.tools.flatMap(tool => entry.topologies.map(topology => ({ case: entry, tool, topology }))))
}

/** An index that refuses connections: a server started and closed at once, its port left unused. */
async function refusedIndex(subject: Subject): Promise<IndexServer> {
  const server = await subject.start({})
  await server.close()
  return server
}

async function servers(entry: MatrixEntry, subject: Subject): Promise<{ index: IndexServer; mirror?: IndexServer; close(): Promise<void> }> {
  const fault = entry.case.index(subject)
  const index = fault === 'refused' ? await refusedIndex(subject) : await subject.start({ fault })
  const mirror = entry.topology === 'mirror' ? await subject.start({ fault: entry.case.mirror?.(subject), lacksNewest: entry.case.laggingMirror }) : undefined
  return { index, mirror, close: async () => { await Promise.all([index.close(), mirror?.close()]) } }
}

function workdir(entry: MatrixEntry, config?: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), `differential-${entry.case.id}-`))
  for (const [name, content] of Object.entries(entry.case.files ?? {})) writeFileSync(join(dir, name), content)
  if (config) writeFileSync(join(dir, '.resilientrc.json'), JSON.stringify(config))
  return dir
}

async function timed(file: string, args: string[], cwd: string, env: Record<string, string>): Promise<RunOutcome & { output: string }> {
  const started = performance.now()
  const result = await execa(file, args, { cwd, env, extendEnv: false, reject: false, all: true, stdin: 'ignore', timeout: 300_000 })
  // A death by signal as a shell reports it (128 + n).
  const status = result.exitCode ?? 128 + (result.signal ? constants.signals[result.signal] : 0)
  return { exitCode: status, ms: performance.now() - started, output: `${String(result.all ?? '')}${result.signal ? `\n[died of ${result.signal}]` : ''}` }
}

/** The plain tool against its index alone; resilient with the same command, the mirror (if any) in its config. */
async function runEntry(entry: MatrixEntry, options: MatrixOptions): Promise<CaseResult> {
  const subject = SUBJECTS[entry.tool]
  const [plainSide, ourSide] = await Promise.all([servers(entry, subject), servers(entry, subject)])
  try {
    const extra = entry.case.extra?.(subject) ?? []
    const newest = Boolean(entry.case.laggingMirror)
    const plainDir = workdir(entry)
    // With a mirror put first (--mirror), the plain tool's equivalent is the tool pointed at that mirror.
    const plainIndex = entry.case.laggingMirror ? plainSide.mirror!.url : plainSide.index.url
    const [file, ...args] = subject.command(plainIndex, plainDir, { newest, extra })
    const mirrors = ourSide.mirror ? [ourSide.mirror.url] : []
    const config = ourSide.mirror ? { [subject.ecosystem]: { index: ourSide.index.url, mirrors: entry.case.laggingMirror ? [] : mirrors } } : {}
    const ourDir = workdir(entry, config)
    const report = join(ourDir, 'report.json')
    const pinned = entry.case.laggingMirror ? ['--mirror', ourSide.mirror!.url] : []
    const ours = ['--report', report, ...pinned, ...subject.command(ourSide.index.url, ourDir, { newest, extra })]
    const runPlain = () => timed(file!, args, plainDir, options.env(entry.tool))
    const runOurs = () => timed('node', [options.cli, ...ours], ourDir, options.env(entry.tool))
    const [plain, resilient] = options.sequential ? [await runPlain(), await runOurs()] : await Promise.all([runPlain(), runOurs()])
    let attempts = 0
    try {
      attempts = (JSON.parse(readFileSync(report, 'utf8')) as { attempts: unknown[] }).attempts.length
    } catch {
      // no report: resilient did not get as far as running the tool
    }
    const { verdict, why } = judge(plain, resilient, (options.slackMs ?? 3000) + (options.slackShare ?? 0) * plain.ms)
    return { id: entry.case.id, fault: entry.case.fault, tool: entry.tool, topology: entry.topology, plain: { exitCode: plain.exitCode, ms: plain.ms }, resilient: { ...resilient, attempts }, verdict, why }
  } finally {
    await Promise.all([plainSide.close(), ourSide.close()])
  }
}

/** Runs the matrix, `concurrency` cases at a time, in the order of matrixEntries. */
export async function runMatrix(options: MatrixOptions): Promise<CaseResult[]> {
  const entries = matrixEntries().filter(options.only ?? (() => true))
  const results: CaseResult[] = new Array(entries.length)
  let next = 0
  const worker = async () => {
    while (next < entries.length) {
      const at = next++
      results[at] = await runEntry(entries[at]!, options)
    }
  }
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 4, entries.length) }, worker))
  return results
}
