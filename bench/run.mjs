#!/usr/bin/env node
// npm run bench: resilient against the plain tool, measured side by side in one run, printed as ratios.
// Figures: (a) black-holed primary + healthy mirror: resilient's time to success vs plain pip's time to failure;
// (b) healthy index: resilient pip download vs pip download, median ratio (target <= 1.10), and the overhead in units
// of `node -e 0`, run between them; (c) resilient --version vs node -e 0 (target <= 1.3); (d) peak RSS while the
// child prints 1 GB (target <= 100 MB); (e) diagnosis accuracy per tool on sets the rules were not tuned on
// (bench/accuracy.mjs, docs/diagnosis.md); (f)-(i) in bench/streams.mjs: stdout and stderr throughput and peak RSS as
// ratios to the plain tool, and the sh launcher's cost (docs/process.md). `--only=streams` runs (f)-(i) alone.
// Options: --quick (fewer runs, skips plain pip's ~98 s black-hole failure), --json, --write (a full run only: saves
// bench/results.json and renders the figures into README.md and docs/benchmarks.md, see bench/render.mjs), --only=startup|perf|streams: (b) and (c) alone with `--only=startup`.
// (perf) start-up, shims, logs, a dead index, a silent terminal (bench/perf.mjs). `--only=perf` runs it alone.
// (relay) the relay's figures, (r1)-(r7) in bench/relay.mjs. `--only=relay` runs them alone.
// (reg) a real project installed from the real npm registry by npm, pnpm, yarn 1, yarn berry and bun, alone and through
// resilient (bench/registry.mjs). `--only=registry` runs it alone.
// (matrix) the differential matrix of "never worse than the plain tool" (bench/matrix.mjs): `--only=matrix` runs it
// alone, and with --write renders it alone (it keeps its own date and machine line in bench/results.json).
// Usage first, before anything is loaded or measured: `npm run bench -- --help` only prints it.
const USAGE = `Usage: npm run bench -- [--quick] [--json] [--write] [--only=startup|perf|streams|matrix|relay|registry] [--rows=...]

Measures resilient against the plain tool in one run and prints each figure as a ratio to it (docs/benchmarks.md).
  --quick          fewer runs; skips plain pip's ~98 s failure on a black-holed index
  --json           print the results as one JSON object
  --write          a full run only: save bench/results.json and render the figures into README.md and docs/benchmarks.md
  --only=startup   (b) and (c) alone: a healthy pip download (with and without NODE_EXTRA_CA_CERTS), --version
  --only=perf      start-up, shims, logs, a dead index, a silent terminal (bench/perf.mjs)
  --only=streams   stdout and stderr throughput, peak RSS, the sh launcher (bench/streams.mjs)
  --only=matrix    the differential matrix: the plain tool and resilient on every fault kind (bench/matrix.mjs)
  --only=relay     the relay's figures (r1)-(r8) (bench/relay.mjs)
  --only=registry  a real project from the real npm registry, each npm-family tool alone and through resilient (bench/registry.mjs)
  --rows=A,B       with --only=matrix, without --write: only the matrix's rows a name picks, a tool (pnpm), a case (dead)
                   or both (yarn:one-503)
  -h, --help       print this and exit`
const OPTIONS = /^(--quick|--json|--write|--only=.*|--rows=.*)$/
if (process.argv.slice(2).some(arg => arg === '--help' || arg === '-h')) {
  console.log(USAGE)
  process.exit(0)
}
const unknown = process.argv.slice(2).filter(arg => !OPTIONS.test(arg))
if (unknown.length) {
  console.error(`bench: unknown option ${unknown.join(' ')}\n\n${USAGE}`)
  process.exit(64)
}

const { execa } = await import('execa')
const { mkdtempSync, readFileSync, rmSync, writeFileSync, chmodSync, mkdirSync } = await import('node:fs')
const { availableParallelism, loadavg, tmpdir } = await import('node:os')
const { join } = await import('node:path')
const { fileURLToPath } = await import('node:url')
const { startPypiServer, buildWheel, matrixEntries } = await import('../build/bench/testing.js')
const { formatAccuracy, measureAccuracy } = await import('./accuracy.mjs')
const { renderSections, withSections } = await import('./render.mjs')
const { formatPerf, measurePerf } = await import('./perf.mjs')
const { figureLauncher, figureStreams, formatStreams } = await import('./streams.mjs')
const { measureMatrix, named } = await import('./matrix.mjs')
const { formatMatrix } = await import('./matrix-render.mjs')
const { formatRelay, measureRelay } = await import('./relay.mjs')
const { formatRegistry, measureRegistry } = await import('./registry.mjs')

const CLI = fileURLToPath(new URL('../bin/resilient.js', import.meta.url))
// (b) runs resilient as a person does: the installed command, the sh launcher in front of Node (bin/resilient), which
// keeps NODE_EXTRA_CA_CERTS from Node's own start (src/own-trust.ts).
const LAUNCHER = fileURLToPath(new URL('../bin/resilient', import.meta.url))
const quick = process.argv.includes('--quick')
const asJson = process.argv.includes('--json')
const write = process.argv.includes('--write')
if (write && quick) {
  console.error('--write saves the figures the documents quote: it needs a full run, without --quick.')
  process.exit(64)
}
const log = (...args) => !asJson && console.error(...args)

/** pip and node as a user without poisoned settings would run them (see test/helpers/isolated-env.ts). */
function cleanEnv(extra = {}) {
  const env = {}
  for (const [k, v] of Object.entries(process.env)) if (!/^(PIP_|RESILIENT_|npm_config_|UV_|CONDA)/.test(k)) env[k] = v
  const home = mkdtempSync(join(tmpdir(), 'bench-home-'))
  return { ...env, HOME: home, XDG_STATE_HOME: join(home, 'state'), XDG_CONFIG_HOME: join(home, 'config'), PIP_CONFIG_FILE: '/dev/null', PIP_DISABLE_PIP_VERSION_CHECK: '1', PIP_NO_INPUT: '1', ...extra }
}

const median = values => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
async function timed(file, args, options) {
  const started = performance.now()
  const result = await execa(file, args, { reject: false, extendEnv: false, stdin: 'ignore', ...options })
  return { ms: performance.now() - started, exitCode: result.exitCode }
}

/** A timing of a command that failed measures nothing: the bench stops instead of comparing with it. */
function succeeded(what, run) {
  if (run.exitCode !== 0) throw new Error(`${what} exited ${run.exitCode} where it must succeed: the figure would compare with a failure`)
  return run
}

async function figureA(wheel) {
  const primary = await startPypiServer({ wheels: [wheel], fault: { kind: 'blackhole' } })
  const mirror = await startPypiServer({ wheels: [wheel] })
  const project = mkdtempSync(join(tmpdir(), 'bench-a-'))
  writeFileSync(join(project, '.resilientrc.json'), JSON.stringify({ pypi: { index: primary.url, mirrors: [mirror.url] } }))
  const dest = () => mkdtempSync(join(tmpdir(), 'bench-dl-'))
  log('(a) black-holed primary + healthy mirror ...')
  const report = join(project, 'report.json')
  const resilient = await timed('node', [CLI, '-q', '--report', report, 'python3', '-m', 'pip', 'download', '--no-deps', '-d', dest(), 'bench-pkg'], { cwd: project, env: cleanEnv() })
  const firstAttemptSeconds = JSON.parse(readFileSync(report, 'utf8')).attempts[0].durationMs / 1000
  let plain = { ms: NaN, exitCode: null }
  if (!quick) plain = await timed('python3', ['-m', 'pip', 'download', '--no-deps', '-d', dest(), '--index-url', primary.url, 'bench-pkg'], { env: cleanEnv() })
  await Promise.all([primary.close(), mirror.close()])
  return { resilientSuccessSeconds: resilient.ms / 1000, resilientExit: resilient.exitCode, firstAttemptSeconds, plainFailureSeconds: plain.ms / 1000, plainExit: plain.exitCode, ratio: resilient.ms / plain.ms }
}

async function figureB(wheel, withoutExtraCa = false) {
  const index = await startPypiServer({ wheels: [wheel] })
  const project = mkdtempSync(join(tmpdir(), 'bench-b-'))
  writeFileSync(join(project, '.resilientrc.json'), JSON.stringify({ pypi: { index: index.url, mirrors: [] } }))
  const runs = quick ? 3 : 9
  const plain = [], wrapped = [], node = []
  log(`(b) healthy index${withoutExtraCa ? ', NODE_EXTRA_CA_CERTS unset' : ''}, ${runs} runs each, interleaved ...`)
  // One HOME for the whole figure, as a person has: resilient's compiled code is kept after its first run there.
  const home = cleanEnv()
  if (withoutExtraCa) delete home.NODE_EXTRA_CA_CERTS
  const env = () => home
  for (let i = 0; i < runs; i++) {
    const args = ['-m', 'pip', 'download', '--no-deps', '--no-cache-dir', '-d', mkdtempSync(join(tmpdir(), 'bench-dl-')), 'bench-pkg']
    // --index-url after the command: pip takes it there only (before it, pip stops with a usage error, exit 2).
    plain.push(succeeded('plain pip', await timed('python3', [...args, '--index-url', index.url], { env: env() })).ms)
    wrapped.push(succeeded('resilient', await timed(LAUNCHER, ['python3', ...args], { cwd: project, env: env() })).ms)
    node.push((await timed('node', ['-e', '0'], { env: env() })).ms)
  }
  await index.close()
  return { runs, plainMedianMs: median(plain), resilientMedianMs: median(wrapped), nodeMedianMs: median(node), ratio: median(wrapped) / median(plain), target: 1.1 }
}

async function figureC() {
  const runs = quick ? 10 : 30
  const node = [], version = []
  log(`(c) start-up, ${runs} runs each, interleaved ...`)
  for (let i = 0; i < runs; i++) {
    node.push((await timed('node', ['-e', '0'], { env: process.env })).ms)
    version.push((await timed('node', [CLI, '--version'], { env: process.env })).ms)
  }
  return { runs, nodeMedianMs: median(node), resilientVersionMedianMs: median(version), ratio: median(version) / median(node), target: 1.3 }
}

async function figureD() {
  // A fake pip that prints 1 GB: resilient must pass it through without keeping it.
  const bin = mkdtempSync(join(tmpdir(), 'bench-bin-'))
  const fake = join(bin, 'pip')
  writeFileSync(fake, `#!/bin/sh\nhead -c ${quick ? 268435456 : 1073741824} /dev/zero\n`)
  chmodSync(fake, 0o755)
  const env = cleanEnv({ PATH: `${bin}:${process.env.PATH}` })
  log(`(d) peak RSS while the child prints ${quick ? '256 MB' : '1 GB'} ...`)
  const child = execa('node', [CLI, 'pip', 'download', 'x'], { env, extendEnv: false, reject: false, stdin: 'ignore', stdout: 'ignore', stderr: 'ignore' })
  let peakKb = 0
  const poll = setInterval(() => {
    try {
      const match = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))
      if (match) peakKb = Math.max(peakKb, Number(match[1]))
    } catch {}
  }, 20)
  const started = performance.now()
  const result = await child
  clearInterval(poll)
  rmSync(bin, { recursive: true, force: true })
  return { bytes: quick ? 268435456 : 1073741824, peakRssMb: peakKb / 1024, seconds: (performance.now() - started) / 1000, exitCode: result.exitCode, target: 100 }
}

async function machine() {
  const pip = (await execa('python3', ['-m', 'pip', '--version'], { env: cleanEnv(), extendEnv: false })).stdout.split(' ').slice(0, 2).join(' ')
  return { date: new Date().toISOString().slice(0, 10), cores: availableParallelism(), node: process.versions.node, pip, loadAverage: loadavg()[0].toFixed(1) }
}

const wheel = buildWheel('bench-pkg', '1.0', { paddingBytes: 200_000 })
const only = process.argv.find(arg => arg.startsWith('--only='))?.slice('--only='.length)
if (only && only !== 'startup' && only !== 'perf' && only !== 'streams' && only !== 'matrix' && only !== 'relay' && only !== 'registry') {
  console.error(`--only takes startup, perf, streams, matrix, relay or registry, not ${only}.`)
  process.exit(64)
}
// The matrix and the relay's figures keep a machine line of their own: either may be measured and written alone.
const ownDate = only === 'matrix' || only === 'relay' || only === 'registry'
if (write && only && !ownDate) {
  console.error('--write saves the figures the documents quote: it needs a full run, without --only (or --only=matrix, relay or registry, which keep their own date).')
  process.exit(64)
}
const perf = () => measurePerf({ cli: CLI, quick, log })
const streams = async () => ({ streams: await figureStreams(cleanEnv(), quick, log), launcher: await figureLauncher(cleanEnv(), quick, log) })
const rows = process.argv.find(arg => arg.startsWith('--rows='))?.slice('--rows='.length).split(',')
// Some rows only: to try a change on them. Never saved: the documents quote the whole matrix.
if (rows && (only !== 'matrix' || write)) {
  console.error('--rows picks rows of the matrix to try: it needs --only=matrix, and no --write.')
  process.exit(64)
}
const unnamed = rows?.filter(row => !matrixEntries().some(entry => named([row], entry))) ?? []
if (unnamed.length) {
  console.error(`--rows: ${unnamed.join(', ')} names no row of the matrix (a tool, a case id of test/support/differential/cases.ts, or tool:case).`)
  process.exit(64)
}
const matrix = async () => ({ machine: await machine(), cases: await measureMatrix({ cli: CLI, cleanEnv, quick, rows, log }) })
const relay = () => measureRelay({ cli: CLI, quick, log })
const registry = async () => ({ machine: await machine(), ...await measureRegistry({ cli: CLI, quick, log }) })
const results = only === 'startup' ? { machine: await machine(), b: await figureB(wheel), bWithoutExtraCa: await figureB(wheel, true), c: await figureC() }
  : only === 'perf' ? { machine: await machine(), perf: await perf() }
  : only === 'relay' ? { relay: { machine: await machine(), ...await relay() } }
  : only === 'streams' ? { machine: await machine(), ...await streams() }
  : only === 'matrix' ? { matrix: await matrix() }
  : only === 'registry' ? { registry: await registry() }
  : { machine: await machine(), a: await figureA(wheel), b: await figureB(wheel), bWithoutExtraCa: await figureB(wheel, true), c: await figureC(), d: await figureD(), e: measureAccuracy(), ...await streams(), perf: await perf(), matrix: await matrix(), relay: { machine: await machine(), ...await relay() }, registry: await registry() }
if (write) {
  const root = path => fileURLToPath(new URL(`../${path}`, import.meta.url))
  if (ownDate) Object.assign(results, { ...JSON.parse(readFileSync(root('bench/results.json'), 'utf8')), [only]: results[only] })
  writeFileSync(root('bench/results.json'), `${JSON.stringify(results, null, 2)}\n`)
  for (const document of ['README.md', 'docs/benchmarks.md']) writeFileSync(root(document), withSections(readFileSync(root(document), 'utf8'), renderSections(results)))
  log('wrote bench/results.json, and its figures into README.md and docs/benchmarks.md')
}
if (asJson) {
  console.log(JSON.stringify(results, null, 2))
} else if (only === 'startup') {
  printStartup(results, n => (Number.isFinite(n) ? n.toFixed(2) : 'skipped'))
} else if (only === 'perf') {
  console.log(formatPerf(results.perf).join('\n'))
} else if (only === 'matrix') {
  console.log(formatMatrix(results.matrix.cases).join('\n'))
} else if (only === 'relay') {
  console.log(formatRelay(results.relay, n => (Number.isFinite(n) ? n.toFixed(2) : 'skipped')).join('\n'))
} else if (only === 'registry') {
  console.log(formatRegistry(results.registry, n => (Number.isFinite(n) ? n.toFixed(2) : 'skipped')).join('\n'))
} else {
  const f = n => (Number.isFinite(n) ? n.toFixed(2) : 'skipped')
  if (!only) printMain(results, f)
  console.log(formatStreams(results, f))
}

function printMain(results, f) {
  console.log(`(a) black hole + mirror: resilient succeeded in ${f(results.a.resilientSuccessSeconds)} s (exit ${results.a.resilientExit}); plain pip failed after ${f(results.a.plainFailureSeconds)} s (exit ${results.a.plainExit}); ratio ${f(results.a.ratio)}`)
  printStartup(results, f)
  console.log(formatAccuracy(results.e))
  console.log(`(d) ${results.d.bytes / 2 ** 20} MB through resilient in ${f(results.d.seconds)} s: peak RSS ${f(results.d.peakRssMb)} MB (target <= 100 MB), exit ${results.d.exitCode}`)
  console.log(formatPerf(results.perf).join('\n'))
  console.log(formatMatrix(results.matrix.cases).join('\n'))
  console.log(formatRelay(results.relay, f).join('\n'))
  console.log(formatRegistry(results.registry, f).join('\n'))
}

function printStartup(results, f) {
  for (const [b, what] of [[results.b, 'healthy index'], [results.bWithoutExtraCa, 'same without NODE_EXTRA_CA_CERTS']]) {
    const added = b.resilientMedianMs - b.plainMedianMs
    console.log(`(b) ${what}: resilient ${f(b.resilientMedianMs)} ms vs pip ${f(b.plainMedianMs)} ms median; ratio ${f(b.ratio)} (target <= 1.10); overhead ${f(added)} ms = ${f(added / b.nodeMedianMs)}x node -e 0 (${f(b.nodeMedianMs)} ms; target <= 2: resilient's own cost beyond node -e 0 at most one node -e 0)`)
  }
  console.log(`(c) start-up: resilient --version ${f(results.c.resilientVersionMedianMs)} ms vs node -e 0 ${f(results.c.nodeMedianMs)} ms median; ratio ${f(results.c.ratio)} (target <= 1.30)`)
}
