// The (perf) table, fast where nothing is wrong and visible while it waits, measured side by side with the plain tool
// in the same run (npm run bench prints it):
//  1. healthy `pip download` through resilient: the time it adds beyond `node -e 0` (goal <= 80 ms);
//  2. read-only calls through a shim (`pip --version`, `pip list`, `npm --version`, `npm ls`): time added (goal <= 40 ms);
//  3. run logs those read-only calls write (goal: none);
//  4. black-holed index -> install finished on the mirror, pip and npm (goal <= 5 s), against the plain tool's failure;
//  5. longest silence on a terminal while the index hangs (goal <= 2 s between visible updates), in a real pty.
// Medians of interleaved runs; every figure also as a ratio to the plain tool measured in between.
import { execa } from 'execa'
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildWheel, startNpmRegistry, startPypiServer } from '../build/bench/testing.js'

export const median = values => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
export const temp = prefix => mkdtempSync(join(tmpdir(), `bench-${prefix}-`))

/** The tools as a person without this machine's poisoned settings runs them (test/helpers/isolated-env.ts). */
export function cleanEnv(extra = {}) {
  const env = {}
  for (const [k, v] of Object.entries(process.env)) if (!/^(PIP_|RESILIENT_|npm_config_|NPM_CONFIG_|UV_|CONDA|YARN_|NODE_EXTRA_CA_CERTS$)/.test(k)) env[k] = v
  const home = temp('home')
  return { ...env, HOME: home, XDG_STATE_HOME: join(home, 'state'), XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache'),
    PIP_CONFIG_FILE: '/dev/null', PIP_DISABLE_PIP_VERSION_CHECK: '1', PIP_NO_INPUT: '1', npm_config_userconfig: join(home, '.npmrc'),
    npm_config_cache: join(home, '.npm'), npm_config_update_notifier: 'false', npm_config_fund: 'false', ...extra }
}

export async function timed(file, args, options = {}) {
  const started = performance.now()
  const result = await execa(file, args, { reject: false, extendEnv: false, stdin: 'ignore', ...options })
  return { ms: performance.now() - started, exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr }
}

/** A timing of a command that failed measures nothing: the bench stops instead of comparing with it. */
export function succeeded(what, run) {
  if (run.exitCode !== 0) throw new Error(`${what} exited ${run.exitCode} where it must succeed: ${run.stderr?.split('\n').slice(-3).join(' | ')}`)
  return run
}

/** Runs each named command `runs` times, interleaved; medians in ms. */
async function interleaved(runs, commands) {
  const times = Object.fromEntries(Object.keys(commands).map(name => [name, []]))
  for (let i = 0; i < runs; i++) for (const [name, run] of Object.entries(commands)) times[name].push((await run()).ms)
  return Object.fromEntries(Object.entries(times).map(([name, values]) => [name, median(values)]))
}

async function healthyDownload(cli, wheel, runs) {
  const index = await startPypiServer({ wheels: [wheel] })
  const project = temp('healthy')
  writeFileSync(join(project, '.resilientrc.json'), JSON.stringify({ pypi: { index: index.url, mirrors: [] } }))
  const args = () => ['-m', 'pip', 'download', '--no-deps', '--no-cache-dir', '-d', temp('dl'), 'bench-pkg']
  const env = cleanEnv()
  const medians = await interleaved(runs, {
    // --index-url after the command: pip takes it there only (before it, pip stops with a usage error, exit 2).
    plain: async () => succeeded('plain pip', await timed('python3', [...args(), '--index-url', index.url], { env })),
    resilient: async () => succeeded('resilient', await timed('node', [cli, 'python3', ...args()], { cwd: project, env })),
    // A first run: no compiled code kept yet (src/cli/code-cache.ts), which it then writes.
    firstRun: async () => succeeded('resilient', await timed('node', [cli, 'python3', ...args()], { cwd: project, env: { ...env, XDG_CACHE_HOME: temp('cache') } })),
    node: () => timed('node', ['-e', '0'], { env }),
  })
  await index.close()
  return { ...medians, addedBeyondNodeMs: medians.resilient - medians.plain - medians.node, firstRunAddedMs: medians.firstRun - medians.plain - medians.node, ratio: medians.resilient / medians.plain, goalMs: 80 }
}

const READ_ONLY_CALLS = [['pip', '--version'], ['pip', 'list'], ['npm', '--version'], ['npm', 'ls']]

async function shimCalls(cli, runs) {
  const env = cleanEnv()
  const dir = join(env.HOME, 'shims')
  await execa('node', [cli, 'shim', 'install', '--dir', dir, 'pip', 'npm'], { env, extendEnv: false })
  const shimmed = { ...env, PATH: `${dir}:${env.PATH}` }
  const cwd = temp('shim-cwd')
  const rows = []
  for (const [tool, ...args] of READ_ONLY_CALLS) {
    const medians = await interleaved(runs, {
      plain: () => timed(tool, args, { cwd, env }),
      shim: () => timed(tool, args, { cwd, env: shimmed }),
      resilient: () => timed('node', [cli, tool, ...args], { cwd, env }),
    })
    rows.push({ call: `${tool} ${args.join(' ')}`, ...medians, addedMs: medians.shim - medians.plain, ratio: medians.shim / medians.plain, goalMs: 40 })
  }
  const logs = join(env.XDG_STATE_HOME, 'resilient', 'logs')
  let written = 0
  try {
    written = readdirSync(logs).length
  } catch {}
  return { rows, logsWritten: written, calls: READ_ONLY_CALLS.length * runs * 2 }
}

async function blackHolePip(cli, wheel, quick) {
  const primary = await startPypiServer({ wheels: [wheel], fault: { kind: 'blackhole' } })
  const mirror = await startPypiServer({ wheels: [wheel] })
  const project = temp('bh-pip')
  writeFileSync(join(project, '.resilientrc.json'), JSON.stringify({ pypi: { index: primary.url, mirrors: [mirror.url] } }))
  const args = ['-m', 'pip', 'download', '--no-deps', '-d', temp('dl'), 'bench-pkg']
  const resilient = await timed('node', [cli, '-q', 'python3', ...args], { cwd: project, env: cleanEnv() })
  const plain = quick ? undefined : await timed('python3', [...args, '--index-url', primary.url], { env: cleanEnv() })
  await Promise.all([primary.close(), mirror.close()])
  return { resilientSeconds: resilient.ms / 1000, resilientExit: resilient.exitCode, plainSeconds: plain && plain.ms / 1000, plainExit: plain?.exitCode, goalSeconds: 5 }
}

async function blackHoleNpm(cli, quick) {
  const packages = [{ name: 'bench-left-pad', version: '1.0.0' }]
  const primary = await startNpmRegistry({ packages, fault: { kind: 'blackhole' } })
  const mirror = await startNpmRegistry({ packages })
  const project = temp('bh-npm')
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'bench', version: '1.0.0', private: true }))
  writeFileSync(join(project, '.resilientrc.json'), JSON.stringify({ npm: { index: primary.url, mirrors: [mirror.url] } }))
  const resilient = await timed('node', [cli, '-q', 'npm', 'install', '--no-audit', 'bench-left-pad'], { cwd: project, env: cleanEnv() })
  // npm's own defaults on a black hole (fetch-timeout 5 min, 2 retries) outlast any bench: cut off at 2 minutes.
  const plainProject = temp('bh-npm-plain')
  writeFileSync(join(plainProject, 'package.json'), JSON.stringify({ name: 'bench', version: '1.0.0', private: true }))
  const plain = quick ? undefined : await timed('npm', ['install', '--no-audit', `--registry=${primary.url}`, 'bench-left-pad'], { cwd: plainProject, env: cleanEnv(), timeout: 120_000 })
  await Promise.all([primary.close(), mirror.close()])
  return { resilientSeconds: resilient.ms / 1000, resilientExit: resilient.exitCode, plainSeconds: plain && plain.ms / 1000, plainExit: plain?.exitCode, goalSeconds: 5 }
}

/** Runs a command in a pseudo-terminal (script(1)) of 100 columns; returns the longest gap between output chunks. */
async function longestSilence(command, options, timeoutMs) {
  const child = execa('script', ['-qfec', `stty cols 100 rows 30; exec ${command}`, '/dev/null'], { ...options, reject: false, extendEnv: false, stdin: 'ignore', timeout: timeoutMs })
  const started = performance.now()
  let last = started
  let longest = 0
  child.stdout.on('data', () => {
    const now = performance.now()
    longest = Math.max(longest, now - last)
    last = now
  })
  const result = await child
  longest = Math.max(longest, performance.now() - last)
  return { longestSilenceSeconds: longest / 1000, seconds: (performance.now() - started) / 1000, exitCode: result.exitCode, timedOut: Boolean(result.timedOut) }
}

async function terminalSilence(cli, wheel, quick) {
  const primary = await startPypiServer({ wheels: [wheel], fault: { kind: 'blackhole' } })
  const mirror = await startPypiServer({ wheels: [wheel] })
  const project = temp('silence')
  writeFileSync(join(project, '.resilientrc.json'), JSON.stringify({ pypi: { index: primary.url, mirrors: [mirror.url] } }))
  const download = `python3 -m pip download --no-deps -d ${temp('dl')} bench-pkg`
  const resilient = await longestSilence(`node ${cli} ${download}`, { cwd: project, env: cleanEnv({ TERM: 'xterm-256color' }) }, 120_000)
  // Plain pip on the same black hole, for the first 30 s (it would go on for ~98 s).
  const plain = await longestSilence(`${download} --index-url ${primary.url}`, { env: cleanEnv({ TERM: 'xterm-256color' }) }, quick ? 20_000 : 30_000)
  await Promise.all([primary.close(), mirror.close()])
  return { resilient, plain, goalSeconds: 2 }
}

/** Every row of the (perf) table. */
export async function measurePerf({ cli, quick, log = () => {} }) {
  const wheel = buildWheel('bench-pkg', '1.0', { paddingBytes: 200_000 })
  const runs = quick ? 5 : 15
  log(`(p1) healthy pip download, ${runs} interleaved runs ...`)
  const healthy = await healthyDownload(cli, wheel, runs)
  log(`(p2) read-only calls through a shim, ${runs} interleaved runs each ...`)
  const shim = await shimCalls(cli, runs)
  log('(p4) black-holed index, pip and npm ...')
  const blackHole = { pip: await blackHolePip(cli, wheel, quick), npm: await blackHoleNpm(cli, quick) }
  log('(p5) longest silence in a terminal while the index hangs ...')
  const silence = await terminalSilence(cli, wheel, quick)
  return { healthy, shim, blackHole, silence }
}

const f = (n, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a')
const ms = n => `${Math.round(n)} ms`
const verdict = ok => (ok ? 'met' : 'MISSED')

/** The table as lines: each row with the plain tool's figure from the same run and the ratio. */
export function formatPerf({ healthy, shim, blackHole, silence }) {
  const lines = ['(perf) (medians of interleaved runs; ratio = resilient / plain tool, measured in the same run):']
  lines.push(`(p1) healthy pip download: resilient ${ms(healthy.resilient)}, plain pip ${ms(healthy.plain)}, node -e 0 ${ms(healthy.node)}: adds ${ms(healthy.addedBeyondNodeMs)} beyond node -e 0 (goal <= 80 ms, ${verdict(healthy.addedBeyondNodeMs <= 80)}); ratio ${f(healthy.ratio)}; a first run (no code cache yet) ${ms(healthy.firstRun)}, adds ${ms(healthy.firstRunAddedMs)}`)
  for (const row of shim.rows) {
    lines.push(`(p2) ${row.call.padEnd(13)} through a shim ${ms(row.shim)} vs plain ${ms(row.plain)}: adds ${ms(row.addedMs)} (goal <= 40 ms, ${verdict(row.addedMs <= 40)}); ratio ${f(row.ratio)}; through resilient itself ${ms(row.resilient)}`)
  }
  lines.push(`(p3) run logs written by ${shim.calls} read-only calls (shim and resilient): ${shim.logsWritten} (goal: none, ${verdict(shim.logsWritten === 0)}); the plain tool writes none`)
  for (const [tool, row] of Object.entries(blackHole)) {
    const plain = row.plainSeconds === undefined ? 'plain not run (--quick)' : `plain ${tool} ${row.plainExit === undefined || row.plainExit === null ? 'still waiting after' : `failed (exit ${row.plainExit}) after`} ${f(row.plainSeconds, 1)} s; ratio ${f(row.resilientSeconds / row.plainSeconds)}`
    lines.push(`(p4) black-holed index, ${tool}: finished on the mirror in ${f(row.resilientSeconds, 1)} s (exit ${row.resilientExit}; goal <= 5 s, ${verdict(row.resilientExit === 0 && row.resilientSeconds <= 5)}); ${plain}`)
  }
  lines.push(`(p5) longest silence in a terminal while the index hangs: ${f(silence.resilient.longestSilenceSeconds, 1)} s over a ${f(silence.resilient.seconds, 1)} s run (goal <= 2 s, ${verdict(silence.resilient.longestSilenceSeconds <= 2)}); plain pip ${f(silence.plain.longestSilenceSeconds, 1)} s over its first ${f(silence.plain.seconds, 0)} s; ratio ${f(silence.resilient.longestSilenceSeconds / silence.plain.longestSilenceSeconds)}`)
  return lines
}

/** The table for docs/benchmarks.md (`npm run bench -- --write`): the (perf) rows, each with its goal. */
export function perfTable({ healthy, shim, blackHole, silence }) {
  const row = (...cells) => `| ${cells.join(' | ')} |`
  const plainOf = run => (run.plainSeconds === undefined ? 'not run' : `${run.plainExit === undefined || run.plainExit === null ? 'still waiting after' : 'fails after'} ${f(run.plainSeconds, 1)} s`)
  return [
    row('what (perf)', 'resilient', 'plain tool', 'ratio', 'goal'),
    row('---', '---', '---', '---', '---'),
    row(`healthy \`pip download\`, time added beyond \`node -e 0\` (${ms(healthy.node)})`, `${ms(healthy.resilient)} (adds ${ms(healthy.addedBeyondNodeMs)})`, ms(healthy.plain), f(healthy.ratio), `≤ 80 ms${healthy.addedBeyondNodeMs > 80 ? ' — **missed**' : ''}`),
    row('the same, a first run (no compiled code kept yet: docs/benchmarks.md)', `${ms(healthy.firstRun)} (adds ${ms(healthy.firstRunAddedMs)})`, ms(healthy.plain), f(healthy.firstRun / healthy.plain), '—'),
    ...shim.rows.map(r => row(`\`${r.call}\` through a shim, time added`, `${ms(r.shim)} (adds ${ms(r.addedMs)}; ${ms(r.resilient)} through resilient itself)`, ms(r.plain), f(r.ratio), `≤ 40 ms${r.addedMs > 40 ? ' — **missed**' : ''}`)),
    row(`run logs written by ${shim.calls} read-only calls`, String(shim.logsWritten), '0', '—', `none${shim.logsWritten ? ' — **missed**' : ''}`),
    ...Object.entries(blackHole).map(([tool, run]) => row(`black-holed index → install finished on the mirror (${tool})`, `${f(run.resilientSeconds, 1)} s`, plainOf(run),
      run.plainSeconds === undefined ? '—' : f(run.resilientSeconds / run.plainSeconds), `≤ 5 s${run.resilientExit !== 0 || run.resilientSeconds > 5 ? ' — **missed**' : ''}`)),
    row('longest silence in a terminal while the index hangs', `${f(silence.resilient.longestSilenceSeconds, 1)} s`, `${f(silence.plain.longestSilenceSeconds, 1)} s (first ${f(silence.plain.seconds, 0)} s)`,
      f(silence.resilient.longestSilenceSeconds / silence.plain.longestSilenceSeconds), `≤ 2 s${silence.resilient.longestSilenceSeconds > 2 ? ' — **missed**' : ''}`),
  ].join('\n')
}
