import { execa } from 'execa'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { constants, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { CASES, type DifferentialCase, type Topology } from './cases.js'
import { startSide, type Side } from './sides.js'
import { SUBJECTS, type Subject, type Want } from './subjects.js'
import { judge, judgeAim, seconds, type Aim, type RunOutcome, type Verdict } from './verdict.js'

export interface MatrixOptions {
  /** Node's entry of the built CLI (bin/resilient.js); the sh launcher beside it (bin/resilient) is what runs, as installed. */
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
  /** What the case's index holds for what it installs: what the plain tool must install where it succeeds (the premise). */
  expected: string[]
  /** `bytes`: what the side's servers sent; `output`: the tool's, both streams. */
  plain: RunOutcome & { bytes: number; output: string }
  /** `relayed`: the run went through resilient's relay (its report says so). */
  resilient: RunOutcome & { bytes: number; attempts: number; relayed: boolean; output: string }
  verdict: Verdict
  why: string
  /** With a mirror, for a case resilient should win (DifferentialCase.shouldWin): whether it did, as the goal says. */
  aim?: Aim
}

/** Every (case, tool, topology) of the matrix. */
export function matrixEntries(cases: readonly DifferentialCase[] = CASES): MatrixEntry[] {
  return cases.flatMap(entry => entry.tools.flatMap(tool => entry.topologies.map(topology => ({ case: entry, tool, topology }))))
}

/** A new working directory for one run, listed in `made` to be removed once the case is judged. */
function workdir(entry: MatrixEntry, made: string[], files: Record<string, string>, config?: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), `differential-${entry.case.id}-`))
  made.push(dir)
  for (const [name, content] of Object.entries({ ...entry.case.files, ...files })) writeFileSync(join(dir, name), content)
  if (config) writeFileSync(join(dir, '.resilientrc.json'), JSON.stringify(config))
  return dir
}

/** Past this, a run is stopped (SIGTERM, then SIGKILL 5 s later): a hang, whichever side. */
const TIMEOUT_MS = 300_000

/**
 * Each run in a session of its own (`detached`), as from a terminal of its own. Linux schedules each session as a
 * group (autogroup), and resilient starts its tool in a new session when its input is no terminal
 * (src/exec/run-child.ts): in the test runner's session, on a busy machine, the plain tool would share the CPU with
 * every process of the runner while resilient's tool had a share of its own (measured: 35 s against 20 s), or
 * resilient itself and its relay would (19 s against 10 s, the plain tool detached alone).
 */
async function timed(file: string, args: string[], cwd: string, env: Record<string, string>): Promise<{ exitCode: number; ms: number; output: string }> {
  const started = performance.now()
  const result = await execa(file, args, { cwd, env, extendEnv: false, reject: false, all: true, stdin: 'ignore', timeout: TIMEOUT_MS, detached: true })
  // A death by signal as a shell reports it (128 + n).
  const status = result.exitCode ?? 128 + (result.signal ? constants.signals[result.signal] : 0)
  const ended = result.timedOut ? `\n[stopped after ${seconds(TIMEOUT_MS)}: ${result.signal ?? 'exited'}]` : result.signal ? `\n[died of ${result.signal}]` : ''
  return { exitCode: status, ms: performance.now() - started, output: `${String(result.all ?? '')}${ended}` }
}

/**
 * Runs `command` (made for a working directory) once, or for a cache case twice, each in a new project: the second
 * with the same environment (the tool's cache kept) and `secondEnv` on top (resilient's new state directory). Its
 * outcome: both runs' time, the last's status and install, the package files fetched during the second; what the
 * side's servers sent, and the requests for the private name that reached its mirror.
 */
async function runSide(entry: MatrixEntry, made: string[], subject: Subject, side: Side, want: Want, run: (dir: string, env: Record<string, string>) => Promise<{ exitCode: number; ms: number; output: string }>,
  env: (dir: string) => Record<string, string>, secondEnv: () => Record<string, string>, config?: unknown): Promise<RunOutcome & { bytes: number; output: string }> {
  const fileRequests = () => side.servers.reduce((sum, server) => sum + server.requests.filter(path => subject.isFile(path)).length, 0)
  let dir = workdir(entry, made, side.files, config)
  let result = await run(dir, env(dir))
  let refetched: number | undefined
  if (entry.case.cacheRestored && result.exitCode === 0) {
    const before = fileRequests()
    dir = workdir(entry, made, side.files, config)
    const again = await run(dir, { ...env(dir), ...secondEnv() })
    result = { ...again, ms: result.ms + again.ms, output: `${result.output}\n--- second run ---\n${again.output}` }
    refetched = fileRequests() - before
  }
  const leaked = side.mirrorServer?.requests.filter(path => path.includes(subject.privateName)).length ?? 0
  const bytes = side.servers.reduce((sum, server) => sum + server.bytesSent(), 0)
  return { ...result, installed: subject.installed(dir, want), ...refetched !== undefined && { refetched }, leaked, bytes }
}

/**
 * The plain tool against its index alone; resilient with the same command through its sh launcher, with the
 * configuration a person writes: in the `mirror` topology a `.resilientrc.json` naming the index and the mirror, and
 * nothing else, so the relay is on as shipped (its default): the tools' requests go through it where they can, pages
 * from the index, files from any source, the restart loop behind them. In the `sole` topology
 * no config: the index on the command line is the person's own, which the relay does not front (no mirror to fail
 * over to), so the tool runs as typed and only the restart loop retries.
 */
async function runEntry(entry: MatrixEntry, options: MatrixOptions): Promise<CaseResult> {
  const subject = SUBJECTS[entry.tool]
  const [plainSide, ourSide] = await Promise.all([startSide(entry, subject), startSide(entry, subject)])
  // The runs' working directories (projects, and the tool's home where it is kept there: venvs, crates, modules).
  const made: string[] = []
  try {
    const want: Want = entry.case.want ?? { package: 'public', version: 'oldest' }
    const extra = [...entry.case.extra?.(subject) ?? [], ...ourSide.args]
    const plainExtra = [...entry.case.extra?.(subject) ?? [], ...plainSide.args]
    // With a mirror put first (--mirror), the plain tool's equivalent is the tool pointed at that mirror.
    const plainIndex = entry.case.mirrorFirst ? plainSide.mirror! : plainSide.index
    const config = ourSide.mirror ? { [subject.ecosystem]: { index: ourSide.index, mirrors: entry.case.mirrorFirst ? [] : [ourSide.mirror] } } : undefined
    const pinned = entry.case.mirrorFirst ? ['--mirror', ourSide.mirror!] : []
    const launcher = join(dirname(options.cli), 'resilient')
    const reports: string[] = []
    // One HOME per side (options.env makes a new one each call), kept by a second run; the subject's variables per working directory.
    const sideEnv = (index: string, side: Side) => {
      const base = options.env(entry.tool)
      return (dir: string) => ({ ...base, ...subject.env?.(index, dir), ...side.env })
    }
    const runPlain = () => runSide(entry, made, subject, plainSide, want, (dir, env) => {
      const [file, ...args] = subject.command(plainIndex, dir, { want, extra: plainExtra })
      return timed(file!, args, dir, env)
    }, sideEnv(plainIndex, plainSide), () => ({}))
    const runOurs = () => runSide(entry, made, subject, ourSide, want, (dir, env) => {
      const report = join(dir, 'report.json')
      reports.push(report)
      const ours = ['--report', report, ...pinned, ...subject.command(ourSide.index, dir, { want, extra })]
      return existsSync(launcher) ? timed(launcher, ours, dir, env) : timed('node', [options.cli, ...ours], dir, env)
    }, sideEnv(ourSide.index, ourSide), () => ({ RESILIENT_STATE_DIR: mkdtempSync(join(tmpdir(), 'differential-new-state-')) }), config)
    const [plain, resilient] = options.sequential ? [await runPlain(), await runOurs()] : await Promise.all([runPlain(), runOurs()])
    let attempts = 0
    let relayed = false
    for (const report of reports) {
      try {
        const parsed = JSON.parse(readFileSync(report, 'utf8')) as { attempts: unknown[]; relay?: unknown }
        attempts = parsed.attempts.length
        relayed ||= parsed.relay !== undefined
      } catch {
        // no report: resilient did not get as far as running the tool
      }
    }
    const expected = subject.expected(want, entry.case.installs ?? 'oldest')
    const { verdict, why } = judge(plain, resilient, (options.slackMs ?? 3000) + (options.slackShare ?? 0) * plain.ms, expected)
    const target = entry.topology === 'mirror' ? entry.case.shouldWin : undefined
    const aim = target && judgeAim(plain, resilient, target, subject.fileBytes, subject.notWon?.[entry.case.id])
    return { id: entry.case.id, fault: entry.case.fault, tool: entry.tool, topology: entry.topology, expected, plain, resilient: { ...resilient, attempts, relayed }, verdict, why, ...aim && { aim } }
  } finally {
    await Promise.all([plainSide.close(), ourSide.close()])
    for (const dir of made) rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * Whether an entry runs with no other entry beside it: a second run that should find the tool's cache needs the relay
 * at the address it had on the first, which a relay of another run must not hold meanwhile. The address is derived
 * from the user and HOME (src/relay/address.ts) and each run is given a HOME of its own (MatrixOptions.env), so other
 * runs, here or in other processes, derive other addresses; alone, no run of this matrix is beside it at all.
 */
const runsAlone = (entry: MatrixEntry) => Boolean(entry.case.cacheRestored)

/** Runs the matrix, `concurrency` cases at a time (those that run alone after them, one by one), in the order of matrixEntries. */
export async function runMatrix(options: MatrixOptions): Promise<CaseResult[]> {
  const entries = matrixEntries().filter(options.only ?? (() => true))
  const results: CaseResult[] = new Array(entries.length)
  const pending = entries.map((_, at) => at).filter(at => !runsAlone(entries[at]!))
  const worker = async () => {
    for (let at = pending.shift(); at !== undefined; at = pending.shift()) results[at] = await runEntry(entries[at]!, options)
  }
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 4, entries.length) }, worker))
  for (const [at, entry] of entries.entries()) if (runsAlone(entry)) results[at] = await runEntry(entry, options)
  return results
}
