// The relay's figures (docs/relay.md), each side by side with the restart loop (`--no-relay`) or the plain tool:
// (r1) npm install of 217 packages from a registry that dies after 40 requests (a healthy mirror): time to success,
//      and package-lock.json byte for byte as plain npm writes it against the healthy registry (target <= 20 s);
// (r2) a 29 MB wheel breaking at 80 % on the index, the same on a mirror: bytes fetched / the file (target <= 1.25);
// (r3) the same breaking at 80 % on every source that honours Range: still installed;
// (r4) an index answering every request after 3.5 s, a fast mirror: against plain pip (target <= 1, never worse);
// (r5) a healthy 200-package npm install: through the relay against plain npm, the direct run (target <= 1.03), with
//      the restart loop, the relay without its look-ahead and a bare Node proxy (the floor of any relay in Node here)
//      beside it, on loopback and 20 ms away;
// (r6) a 1 GB wheel downloaded by pip through the relay against direct (target >= 0.95 of direct throughput) and the
//      relay's peak memory above its idle floor (<= 64 MB); and 1 GB with curl from a server that writes from
//      memory, the relay's own ceiling (no target: no tool reads that fast);
// (r7) the relay's start (startRelay, listening) (target <= 20 ms);
// (r8) a black-holed index with a current mirror: pip through the relay, its pages the mirror's once the index
//      stayed silent 5 s (target <= 10 s to success), beside the restart loop.
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { execa } from 'execa'
import { buildTarball, buildWheel, startNpmRegistry, startPypiServer } from '../build/bench/testing.js'
import { cleanEnv, median, succeeded, temp, timed } from './perf.mjs'

const CHILD = fileURLToPath(new URL('./relay-child.mjs', import.meta.url))
const SECRET = 'bench-relay-secret-0123456789abcdef0123456789'
const AUTH = `authorization: Basic ${Buffer.from(`resilient:${SECRET}`).toString('base64')}`
const kb = pid => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0)
const rss = pid => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0)

/** A project folder with `files` and a `.resilientrc.json`. */
function project(config, files = {}) {
  const dir = temp('relay')
  writeFileSync(join(dir, '.resilientrc.json'), JSON.stringify(config))
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content)
  return dir
}

async function child(args) {
  const process_ = spawn('node', [CHILD, ...args], { stdio: ['pipe', 'pipe', 'inherit'] })
  const [line] = await createInterface({ input: process_.stdout })[Symbol.asyncIterator]().next().then(({ value }) => [value])
  return { ...JSON.parse(line), pid: process_.pid, stop: () => process_.stdin.end() }
}

async function scale(cli, quick, log) {
  log('(r1) npm install of 217 packages, the registry dying after 40 requests ...')
  const packages = Array.from({ length: 217 }, (_, i) => buildTarball({ name: `scale-pkg-${i}`, version: '1.0.0' }))
  const manifest = JSON.stringify({ name: 'scale', version: '1.0.0', private: true, dependencies: Object.fromEntries(packages.map(p => [p.spec.name, '^1.0.0'])) })
  let dying = false
  let served = 0
  const index = await startNpmRegistry({ packages, fault: () => dying && ++served > 40 ? { kind: 'blackhole' } : { kind: 'ok' } })
  const mirror = await startNpmRegistry({ packages })
  const plain = project({}, { 'package.json': manifest })
  succeeded('plain npm', await timed('npm', ['install', '--no-audit', `--registry=${index.url}`], { cwd: plain, env: cleanEnv() }))
  const config = { npm: { index: index.url, mirrors: [mirror.url] } }
  dying = true
  const relayed = project(config, { 'package.json': manifest })
  const relay = await timed('node', [cli, '-q', 'npm', 'install', '--no-audit'], { cwd: relayed, env: cleanEnv() })
  const lock = dir => readFileSync(join(dir, 'package-lock.json'), 'utf8')
  served = 0
  const looped = project(config, { 'package.json': manifest })
  const loop = quick ? undefined : await timed('node', [cli, '-q', '--no-relay', 'npm', 'install', '--no-audit'], { cwd: looped, env: cleanEnv(), timeout: 200_000 })
  await Promise.all([index.close(), mirror.close()])
  return { packages: 217, relaySeconds: relay.ms / 1000, relayExit: relay.exitCode, lockfileIdentical: relay.exitCode === 0 && lock(relayed) === lock(plain),
    loopSeconds: loop ? loop.ms / 1000 : NaN, loopExit: loop?.exitCode ?? null, target: 20 }
}

async function breaks(cli, everySource, log) {
  log(`(r${everySource ? 3 : 2}) a 29 MB wheel breaking at 80 % on ${everySource ? 'every source' : 'the index'} ...`)
  const wheel = buildWheel('big-pkg', '1.0', { paddingBytes: 29_000_000 })
  const breaking = { fault: ({ isFile }) => isFile ? { kind: 'truncate', atFraction: 0.8 } : { kind: 'ok' } }
  const run = async relay => {
    const index = await startPypiServer({ wheels: [wheel], ...breaking })
    const mirror = await startPypiServer({ wheels: [wheel], ...(everySource ? breaking : {}) })
    const cwd = project({ pypi: { index: index.url, mirrors: [mirror.url] } })
    const result = await timed('node', [cli, '-q', ...(relay ? [] : ['--no-relay']), 'python3', '-m', 'pip', 'download', '--no-deps', '-d', temp('dl'), 'big-pkg'], { cwd, env: cleanEnv() })
    const fetched = index.bytesSent() + mirror.bytesSent()
    await Promise.all([index.close(), mirror.close()])
    return { exit: result.exitCode, seconds: result.ms / 1000, fetchedRatio: fetched / wheel.bytes.length }
  }
  return { fileBytes: wheel.bytes.length, relay: await run(true), loop: await run(false), target: everySource ? 'installed' : 1.25 }
}

async function slowIndex(cli, quick, log) {
  log('(r4) an index answering every request after 3.5 s, a fast mirror ...')
  const wheels = ['alpha', 'beta', 'gamma', 'delta'].map(name => buildWheel(`slow-${name}`, '1.0'))
  const index = await startPypiServer({ wheels, fault: { kind: 'delay', ms: 3500 } })
  const mirror = await startPypiServer({ wheels })
  const cwd = project({ pypi: { index: index.url, mirrors: [mirror.url] } })
  const args = ['-m', 'pip', 'download', '--no-deps', ...wheels.map(wheel => wheel.name)]
  const plain = succeeded('plain pip', await timed('python3', [...args, '-d', temp('dl'), '--index-url', index.url], { env: cleanEnv() }))
  const relay = succeeded('resilient', await timed('node', [cli, '-q', 'python3', ...args, '-d', temp('dl')], { cwd, env: cleanEnv() }))
  const loop = quick ? undefined : await timed('node', [cli, '-q', '--no-relay', 'python3', ...args, '-d', temp('dl')], { cwd, env: cleanEnv() })
  await Promise.all([index.close(), mirror.close()])
  return { requests: 2 * wheels.length, plainSeconds: plain.ms / 1000, relaySeconds: relay.ms / 1000, loopSeconds: loop ? loop.ms / 1000 : NaN, ratio: relay.ms / plain.ms, target: 1 }
}

/**
 * A healthy 200-package npm install, interleaved runs: plain npm, through the relay, the restart loop, and npm
 * through a bare Node proxy, the floor of any relay written in Node on the same machine. `delayMs` puts the registry
 * that far away (each request answered after it), as a real one is.
 */
async function healthy(cli, quick, log, delayMs = 0) {
  const runs = quick ? 1 : 7
  log(`(r5) a healthy 200-package npm install${delayMs ? `, the registry ${delayMs} ms away` : ' on loopback'}, ${runs} interleaved runs each ...`)
  const packages = Array.from({ length: 200 }, (_, i) => buildTarball({ name: `healthy-pkg-${i}`, version: '1.0.0' }))
  const manifest = JSON.stringify({ name: 'healthy', version: '1.0.0', private: true, dependencies: Object.fromEntries(packages.map(p => [p.spec.name, '^1.0.0'])) })
  const index = await startNpmRegistry({ packages, ...(delayMs && { fault: { kind: 'delay', ms: delayMs } }) })
  const bare = await child(['bare', index.url])
  const config = { npm: { index: index.url, mirrors: [] } }
  const times = { plain: [], relay: [], loop: [], bare: [], noLook: [] }
  const npm = registry => ['install', '--no-audit', `--registry=${registry}`]
  const arms = [
    ['plain', 'plain npm', () => timed('npm', npm(index.url), { cwd: project({}, { 'package.json': manifest }), env: cleanEnv() })],
    ['relay', 'resilient', () => timed('node', [cli, '-q', 'npm', 'install', '--no-audit'], { cwd: project(config, { 'package.json': manifest }), env: cleanEnv() })],
    ['loop', 'resilient --no-relay', () => timed('node', [cli, '-q', '--no-relay', 'npm', 'install', '--no-audit'], { cwd: project(config, { 'package.json': manifest }), env: cleanEnv() })],
    ['noLook', 'resilient, lookAhead false', () => timed('node', [cli, '-q', 'npm', 'install', '--no-audit'], { cwd: project({ ...config, lookAhead: false }, { 'package.json': manifest }), env: cleanEnv() })],
    ['bare', 'npm through a bare proxy', () => timed('npm', npm(bare.url), { cwd: project({}, { 'package.json': manifest }), env: cleanEnv() })],
  ]
  // The order turns with each run: none always follows the same one.
  for (let i = 0; i < runs; i++) {
    for (const [key, what, run] of [...arms.slice(i % arms.length), ...arms.slice(0, i % arms.length)]) times[key].push(succeeded(what, await run()).ms)
  }
  bare.stop()
  await index.close()
  const [plain, relay, loop, noLook] = [median(times.plain), median(times.relay), median(times.loop), median(times.noLook)]
  const bareMs = median(times.bare)
  const spread = key => [Math.min(...times[key]), Math.max(...times[key])]
  return { runs, packages: 200, delayMs, plainMs: plain, relayMs: relay, loopMs: loop, bareMs, noLookMs: noLook, ratio: relay / plain, ratioToLoop: relay / loop, bareToPlain: bareMs / plain,
    noLookToPlain: noLook / plain, spread: { plain: spread('plain'), relay: spread('relay') }, target: 1.03 }
}

async function throughput(quick, log) {
  const bytes = quick ? 256 * 2 ** 20 : 2 ** 30
  const runs = quick ? 1 : 3
  log(`(r6) ${bytes / 2 ** 20} MB through the relay and direct, ${runs} runs each ...`)
  const file = await child(['file', String(bytes)])
  const relay = await child(['relay', JSON.stringify({ protocol: 'pypi', secret: SECRET, sources: [{ id: 'index', pages: `${file.url}simple/`, files: file.url }] })])
  // The page first: the relay learns the file's sha256 and checks the whole gigabyte against it.
  await execa('curl', ['-sf', '-H', AUTH, '-o', '/dev/null', `${relay.indexUrl}big/`])
  const floorKb = rss(relay.pid)
  const speed = async (url, headers) => Number((await execa('curl', ['-sf', ...headers, '-o', '/dev/null', '-w', '%{speed_download}', url])).stdout)
  const direct = [], relayed = []
  for (let i = 0; i < runs; i++) {
    direct.push(await speed(`${file.url}files/big-1.0-py3-none-any.whl`, []))
    relayed.push(await speed(`${relay.base}files/big-1.0-py3-none-any.whl`, ['-H', AUTH]))
  }
  const peakKb = kb(relay.pid)
  file.stop()
  relay.stop()
  return { bytes, runs, directMBps: median(direct) / 1e6, relayMBps: median(relayed) / 1e6, ratio: median(relayed) / median(direct), floorMb: floorKb / 1024, aboveFloorMb: (peakKb - floorKb) / 1024, targets: { ratio: 0.95, memoryMb: 64 } }
}

async function pipThroughput(quick, log) {
  const megabytes = quick ? 64 : 1024
  const runs = quick ? 1 : 3
  log(`(r6) pip download of a ${megabytes} MB wheel through the relay and direct, ${runs} runs each ...`)
  const wheel = buildWheel('huge-pkg', '1.0', { paddingBytes: megabytes * 2 ** 20 })
  const index = await startPypiServer({ wheels: [wheel] })
  const relay = await child(['relay', JSON.stringify({ protocol: 'pypi', secret: SECRET, sources: [{ id: 'index', pages: `${index.url}/`, files: index.url.replace(/simple$/, '') }] })])
  const netrc = join(temp('netrc'), 'netrc')
  writeFileSync(netrc, `machine 127.0.0.1 login resilient password ${SECRET}\n`, { mode: 0o600 })
  const download = async url => {
    const into = temp('dl')
    const run = succeeded('pip', await timed('python3', ['-m', 'pip', 'download', '--no-deps', '--no-cache-dir', '-d', into, '--index-url', url, 'huge-pkg'], { env: cleanEnv({ NETRC: netrc }) }))
    rmSync(into, { recursive: true, force: true })
    // The gigabyte just written is flushed now, not during the next run.
    await execa('sync')
    return run.ms
  }
  const floorKb = rss(relay.pid)
  const direct = [], relayed = []
  // Each goes first in turn: whatever the previous run leaves behind falls on both alike.
  for (let i = 0; i < runs; i++) {
    if (i % 2) relayed.push(await download(relay.indexUrl))
    direct.push(await download(index.url))
    if (!(i % 2)) relayed.push(await download(relay.indexUrl))
  }
  const peakKb = kb(relay.pid)
  relay.stop()
  await index.close()
  return { megabytes, runs, directMs: median(direct), relayMs: median(relayed), ratio: median(direct) / median(relayed), aboveFloorMb: (peakKb - floorKb) / 1024, target: 0.95 }
}

async function blackHoled(cli, quick, log) {
  log('(r8) a black-holed index, a current mirror: pip through the relay ...')
  const wheels = ['one', 'two'].map(name => buildWheel(`dead-${name}`, '1.0'))
  const index = await startPypiServer({ wheels, fault: { kind: 'blackhole' } })
  const mirror = await startPypiServer({ wheels })
  const cwd = project({ pypi: { index: index.url, mirrors: [mirror.url] } })
  const args = ['-m', 'pip', 'download', '--no-deps', ...wheels.map(wheel => wheel.name)]
  const relay = await timed('node', [cli, '-q', 'python3', ...args, '-d', temp('dl')], { cwd, env: cleanEnv() })
  const loop = quick ? undefined : await timed('node', [cli, '-q', '--no-relay', 'python3', ...args, '-d', temp('dl')], { cwd, env: cleanEnv() })
  await Promise.all([index.close(), mirror.close()])
  return { packages: wheels.length, relayExit: relay.exitCode, relaySeconds: relay.ms / 1000, loopExit: loop?.exitCode, loopSeconds: loop ? loop.ms / 1000 : NaN, target: 10 }
}

async function start(quick, log) {
  const runs = quick ? 5 : 15
  log(`(r7) the relay's start, ${runs} fresh processes ...`)
  const times = []
  for (let i = 0; i < runs; i++) {
    const relay = await child(['relay', JSON.stringify({ protocol: 'pypi', secret: SECRET, sources: [{ id: 'index', pages: 'http://127.0.0.1:9/simple/', files: 'http://127.0.0.1:9/' }] })])
    times.push(relay.startMs)
    relay.stop()
  }
  return { runs, medianMs: median(times), target: 20 }
}

export async function measureRelay({ cli, quick, log }) {
  return { scale: await scale(cli, quick, log), breakOnIndex: await breaks(cli, false, log), breakEverywhere: await breaks(cli, true, log),
    slowIndex: await slowIndex(cli, quick, log), healthy: await healthy(cli, quick, log), healthyAway: await healthy(cli, quick, log, 20), throughput: await throughput(quick, log), pipThroughput: await pipThroughput(quick, log), start: await start(quick, log),
    blackHoled: await blackHoled(cli, quick, log) }
}

export function formatRelay(r, f) {
  return [
    `(r1) 217 packages, registry dying after 40 requests: through the relay ${f(r.scale.relaySeconds)} s (exit ${r.scale.relayExit}, lockfile ${r.scale.lockfileIdentical ? 'byte-identical' : 'DIFFERENT'}; target <= 20 s); restart loop ${f(r.scale.loopSeconds)} s (exit ${r.scale.loopExit})`,
    `(r2) 29 MB wheel breaking at 80 % on the index: fetched ${f(r.breakOnIndex.relay.fetchedRatio)}x the file through the relay (exit ${r.breakOnIndex.relay.exit}; target <= 1.25), ${f(r.breakOnIndex.loop.fetchedRatio)}x with the restart loop (exit ${r.breakOnIndex.loop.exit})`,
    `(r3) breaking at 80 % on every source: relay exit ${r.breakEverywhere.relay.exit} (${f(r.breakEverywhere.relay.fetchedRatio)}x fetched), restart loop exit ${r.breakEverywhere.loop.exit}`,
    `(r4) index answering after 3.5 s, fast mirror, ${r.slowIndex.requests} requests: relay ${f(r.slowIndex.relaySeconds)} s vs plain pip ${f(r.slowIndex.plainSeconds)} s; ratio ${f(r.slowIndex.ratio)} (target <= 1); restart loop ${f(r.slowIndex.loopSeconds)} s`,
    ...[r.healthy, r.healthyAway].filter(Boolean).map(h => `(r5) healthy 200-package npm install, ${h.delayMs ? `the registry ${h.delayMs} ms away` : 'on loopback'}: relay ${f(h.relayMs)} ms vs plain npm ${f(h.plainMs)} ms; ratio ${f(h.ratio)} (target <= 1.03); restart loop ${f(h.loopMs)} ms; relay without look-ahead ${f(h.noLookMs)} ms (${f(h.noLookToPlain)}); a bare Node proxy ${f(h.bareToPlain)}`),
    `(r6) pip download of a ${r.pipThroughput.megabytes} MB wheel: relay ${f(r.pipThroughput.relayMs)} ms vs direct ${f(r.pipThroughput.directMs)} ms; throughput ratio ${f(r.pipThroughput.ratio)} (target >= 0.95); relay memory ${f(r.pipThroughput.aboveFloorMb)} MB above its floor (target <= 64)`,
    `(r6) ${r.throughput.bytes / 2 ** 20} MB with curl from memory, the relay's ceiling: relay ${f(r.throughput.relayMBps)} MB/s vs direct ${f(r.throughput.directMBps)} MB/s (${f(r.throughput.ratio)}); relay memory ${f(r.throughput.aboveFloorMb)} MB above its floor of ${f(r.throughput.floorMb)} MB (target <= 64)`,
    `(r7) relay start: ${f(r.start.medianMs)} ms median of ${r.start.runs} (target <= 20 ms)`,
    ...(r.blackHoled ? [`(r8) black-holed index, current mirror, ${r.blackHoled.packages} packages: relay ${f(r.blackHoled.relaySeconds)} s (exit ${r.blackHoled.relayExit}; target <= 10 s); restart loop ${f(r.blackHoled.loopSeconds)} s (exit ${r.blackHoled.loopExit})`] : []),
  ]
}

/** The table for docs/benchmarks.md (`npm run bench -- --write`): each relay figure with its target. */
export function relayTable(r) {
  const f = n => (Number.isFinite(n) ? n.toFixed(2) : '—')
  const missed = ok => (ok ? '' : ' — **missed**')
  const m = r.machine
  return [
    ...(m ? [`Measured on ${m.date}: ${m.cores} cores, Node ${m.node}, ${m.pip}, load average ${m.loadAverage} at the start.`, ''] : []),
    '| figure | through the relay | without it | ratio | target |',
    '| --- | --- | --- | --- | --- |',
    `| (r1) npm install of 217 packages, the registry dying after 40 requests (a healthy mirror): time to success | ${f(r.scale.relaySeconds)} s, lockfile ${r.scale.lockfileIdentical ? 'byte-identical' : '**different**'} | ${r.scale.loopExit === null && Number.isFinite(r.scale.loopSeconds) ? `not done after ${f(r.scale.loopSeconds)} s (restart loop, stopped)` : `${f(r.scale.loopSeconds)} s (restart loop, exit ${r.scale.loopExit})`} | — | ≤ 20 s${missed(r.scale.relaySeconds <= 20 && r.scale.lockfileIdentical)} |`,
    `| (r2) a ${f(r.breakOnIndex.fileBytes / 1e6)} MB wheel breaking at 80 % on the index: bytes fetched in all, per byte of the file | ${f(r.breakOnIndex.relay.fetchedRatio)} (exit ${r.breakOnIndex.relay.exit}) | ${f(r.breakOnIndex.loop.fetchedRatio)} (exit ${r.breakOnIndex.loop.exit}) | — | ≤ 1.25${missed(r.breakOnIndex.relay.fetchedRatio <= 1.25)} |`,
    `| (r3) the same breaking at 80 % on every source | exit ${r.breakEverywhere.relay.exit} (${f(r.breakEverywhere.relay.fetchedRatio)}) | exit ${r.breakEverywhere.loop.exit} | — | installed${missed(r.breakEverywhere.relay.exit === 0)} |`,
    `| (r4) an index answering after 3.5 s, a fast mirror: ${r.slowIndex.requests} requests, against plain pip on the index | ${f(r.slowIndex.relaySeconds)} s | ${f(r.slowIndex.plainSeconds)} s (plain pip); ${f(r.slowIndex.loopSeconds)} s (restart loop) | ${f(r.slowIndex.ratio)} | ≤ 1${missed(r.slowIndex.ratio <= 1)} |`,
    ...[r.healthy, r.healthyAway].filter(Boolean).map(h => `| (r5) a healthy 200-package npm install${h.delayMs ? `, the registry ${h.delayMs} ms away` : ' on loopback'}, median of ${h.runs}, against plain npm | ${f(h.relayMs)} ms (runs ${f(h.spread?.relay[0])}–${f(h.spread?.relay[1])}) | ${f(h.plainMs)} ms plain npm (runs ${f(h.spread?.plain[0])}–${f(h.spread?.plain[1])}); ${f(h.loopMs)} ms restart loop; ${f(h.noLookMs)} ms relay without look-ahead (${f(h.noLookToPlain)}); npm through a bare Node proxy: ${f(h.bareToPlain)} | ${f(h.ratio)} | ≤ 1.03${missed(h.ratio <= 1.03)} |`),
    `| (r6) pip download of a ${r.pipThroughput.megabytes} MB wheel, median of ${r.pipThroughput.runs}: throughput | ${f(r.pipThroughput.relayMs)} ms | ${f(r.pipThroughput.directMs)} ms | ${f(r.pipThroughput.ratio)} | ≥ 0.95${missed(r.pipThroughput.ratio >= 0.95)} |`,
    ...(Number.isFinite(r.pipThroughput.aboveFloorMb) ? [`| (r6) the relay's peak memory during it, above its idle size | ${f(r.pipThroughput.aboveFloorMb)} MB | — | — | ≤ 64 MB${missed(r.pipThroughput.aboveFloorMb <= 64)} |`] : []),
    `| (r6) ${r.throughput.bytes / 2 ** 20} MB with curl from a server writing from memory: the relay's ceiling | ${f(r.throughput.relayMBps)} MB/s | ${f(r.throughput.directMBps)} MB/s | ${f(r.throughput.ratio)} | — |`,
    `| (r6) the relay's peak memory during it, above its idle ${f(r.throughput.floorMb)} MB | ${f(r.throughput.aboveFloorMb)} MB | — | — | ≤ 64 MB${missed(r.throughput.aboveFloorMb <= 64)} |`,
    `| (r7) the relay's start (listening), median of ${r.start.runs} | ${f(r.start.medianMs)} ms | — | — | ≤ 20 ms${missed(r.start.medianMs <= 20)} |`,
    ...(r.blackHoled ? [`| (r8) a black-holed index, a current mirror: pip, ${r.blackHoled.packages} packages, time to success | ${f(r.blackHoled.relaySeconds)} s (exit ${r.blackHoled.relayExit}) | ${f(r.blackHoled.loopSeconds)} s (restart loop, exit ${r.blackHoled.loopExit}) | — | ≤ 10 s${missed(r.blackHoled.relayExit === 0 && r.blackHoled.relaySeconds <= 10)} |`] : []),
  ].join('\n')
}
