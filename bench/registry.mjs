// (reg) A healthy install of a real project from the real npm registry, cold cache, no lockfile: each npm-family tool
// alone and through resilient as shipped (its default configuration), interleaved, and the lockfiles each side wrote
// compared byte for byte (the target: at most 1.05× the plain tool, lockfiles identical). The project is the
// package.json of create-vite 9.3.0's react-ts template (bench/fixtures/vite-react-ts), as `npm create vite` writes
// it. When registry.npmjs.org cannot be reached the figure says so and measures nothing.
// `npm run bench -- --only=registry` runs it alone.
import { copyFileSync, existsSync, readFileSync, rmSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { cleanEnv, median, temp, timed } from './perf.mjs'
import { bunExecutable, SCRIPTS, toolPath } from './tool-path.mjs'

const PROJECT = fileURLToPath(new URL('./fixtures/vite-react-ts/package.json', import.meta.url))
const REGISTRY = 'https://registry.npmjs.org/'

/** Each tool as its devDependency provides it, under the name people type; its install command and lockfile. */
const TOOLS = [
  { tool: 'npm', args: ['install', '--no-audit', '--no-fund'], lockfile: 'package-lock.json' },
  { tool: 'pnpm', script: SCRIPTS.pnpm, args: ['install'], lockfile: 'pnpm-lock.yaml' },
  { tool: 'yarn 1', name: 'yarn', script: SCRIPTS.yarn1, args: ['install', '--non-interactive'], lockfile: 'yarn.lock' },
  // Berry turns immutable installs on under CI=true, which refuses to write a lockfile: a fresh project needs one written.
  { tool: 'yarn berry', name: 'yarn', script: SCRIPTS.berry, args: ['install'], lockfile: 'yarn.lock', env: { YARN_ENABLE_IMMUTABLE_INSTALLS: 'false', YARN_ENABLE_TELEMETRY: '0' } },
  { tool: 'bun', binary: bunExecutable(), args: ['install'], lockfile: 'bun.lock' },
]

async function reachable() {
  try {
    const response = await fetch(`${REGISTRY}react`, { signal: AbortSignal.timeout(15_000), headers: { accept: 'application/vnd.npm.install-v1+json' } })
    await response.arrayBuffer()
    return response.ok
  } catch {
    return false
  }
}

function project() {
  const dir = temp('registry-project')
  copyFileSync(PROJECT, join(dir, 'package.json'))
  return dir
}

const lockfileOf = (dir, name) => existsSync(join(dir, name)) ? readFileSync(join(dir, name)) : undefined

async function measureTool(cli, entry, runs, log) {
  const bin = entry.tool === 'npm' ? undefined : toolPath({ ...entry, name: entry.name ?? entry.tool })
  // A fresh HOME per run: every tool keeps its cache under it (~/.npm, pnpm's store, ~/.cache/yarn, ~/.yarn/berry, ~/.bun).
  // This machine reaches the registry through a TLS-inspecting proxy whose CA only NODE_EXTRA_CA_CERTS (and the
  // global npmrc's cafile) give: kept here, as a person behind such a proxy keeps it, where cleanEnv drops it.
  const network = process.env.NODE_EXTRA_CA_CERTS ? { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS } : {}
  const env = () => {
    const base = cleanEnv({ ...network, ...entry.env })
    return bin ? { ...base, PATH: `${bin}${delimiter}${base.PATH}` } : base
  }
  const name = entry.name ?? entry.tool
  const times = { plain: [], resilient: [] }
  const identical = []
  for (let i = 0; i < runs; i++) {
    const sides = {}
    // Each side in a new project with a new HOME, both removed once its lockfile is read: a run leaves some 400 MB
    // (node_modules and the tool's cache), and the machine's /tmp is shared.
    const side = file => args => {
      const cwd = project()
      const home = env()
      return timed(file, args, { cwd, env: home }).then(run => ({ ...run, lockfile: lockfileOf(cwd, entry.lockfile) }))
        .finally(() => { rmSync(cwd, { recursive: true, force: true }); rmSync(home.HOME, { recursive: true, force: true }) })
    }
    const arms = [
      ['plain', () => side(name)(entry.args)],
      ['resilient', () => side('node')([cli, '-q', name, ...entry.args])],
    ]
    // The order turns with each run: neither side always warms the machine for the other.
    for (const [which, run] of i % 2 ? arms.reverse() : arms) {
      const result = await run()
      if (result.exitCode !== 0) throw new Error(`${entry.tool}: ${which} exited ${result.exitCode} on a healthy install from ${REGISTRY}: ${`${result.stdout}\n${result.stderr}`.trim().split('\n').slice(-4).join(' | ')}`)
      times[which].push(result.ms)
      sides[which] = result.lockfile
    }
    identical.push(Boolean(sides.plain && sides.resilient && sides.plain.equals(sides.resilient)))
    log(`  ${entry.tool} run ${i + 1}: plain ${Math.round(times.plain.at(-1))} ms, resilient ${Math.round(times.resilient.at(-1))} ms, lockfile ${identical.at(-1) ? 'identical' : 'DIFFERENT'}`)
  }
  if (bin) rmSync(bin, { recursive: true, force: true })
  const [plainMs, resilientMs] = [median(times.plain), median(times.resilient)]
  return { tool: entry.tool, runs, plainMs, resilientMs, ratio: resilientMs / plainMs, lockfilesIdentical: identical.every(Boolean), spread: { plain: [Math.min(...times.plain), Math.max(...times.plain)], resilient: [Math.min(...times.resilient), Math.max(...times.resilient)] }, target: 1.05 }
}

export async function measureRegistry({ cli, quick, log }) {
  log(`(reg) a healthy install of create-vite's react-ts template from ${REGISTRY}, cold cache, no lockfile ...`)
  if (!await reachable()) {
    log(`  ${REGISTRY} cannot be reached from here: nothing measured`)
    return { reachable: false, tools: [] }
  }
  // Five runs a side: the registry through this machine's proxy and the shared cores spread single runs over 2x.
  const runs = quick ? 1 : 5
  const tools = []
  for (const entry of TOOLS) {
    if (entry.tool === 'bun' && !entry.binary) {
      log('  bun: no working binary in node_modules (its postinstall did not run): skipped')
      continue
    }
    tools.push(await measureTool(cli, entry, runs, log))
  }
  return { reachable: true, project: 'create-vite 9.3.0 template-react-ts', tools }
}

export function formatRegistry(r, f) {
  if (!r.reachable) return ['(reg) registry.npmjs.org could not be reached: not measured']
  return r.tools.map(t => `(reg) ${t.tool}, real registry, cold cache: resilient ${f(t.resilientMs)} ms vs plain ${f(t.plainMs)} ms (median of ${t.runs}); ratio ${f(t.ratio)} (target <= 1.05); lockfiles ${t.lockfilesIdentical ? 'identical' : 'DIFFERENT'}`)
}

/** The table for docs/benchmarks.md. */
export function registryTable(r) {
  const f = n => (Number.isFinite(n) ? n.toFixed(2) : '—')
  const s = ms => `${(ms / 1000).toFixed(1)} s`
  const m = r.machine
  const head = m ? [`Measured on ${m.date}: ${m.cores} cores, Node ${m.node}, load average ${m.loadAverage} at the start; the registry reached through this machine's network (a TLS-inspecting egress proxy).`, ''] : []
  if (!r.reachable) return [...head, 'registry.npmjs.org could not be reached from the machine: nothing measured.'].join('\n')
  return [
    ...head,
    `| ${r.project}, cold cache, no lockfile | through resilient (median) | plain tool (median) | ratio | lockfiles | target |`,
    '| --- | --- | --- | --- | --- | --- |',
    ...r.tools.map(t => `| ${t.tool}, ${t.runs} runs each | ${s(t.resilientMs)} (${s(t.spread.resilient[0])}–${s(t.spread.resilient[1])}) | ${s(t.plainMs)} (${s(t.spread.plain[0])}–${s(t.spread.plain[1])}) | ${f(t.ratio)} | ${t.lockfilesIdentical ? 'identical' : '**different**'} | ≤ 1.05${t.ratio <= 1.05 && t.lockfilesIdentical ? '' : ' — **missed**'} |`),
  ].join('\n')
}
