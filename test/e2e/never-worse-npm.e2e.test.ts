import { execa } from 'execa'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { buildTarball, startNpmRegistry, type NpmRegistry } from '../helpers/fake-npm-registry.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli } from '../helpers/run-cli.js'
import { projectWithConfig } from '../helpers/e2e-setup.js'

// The rows of "never worse than the plain tool" about a flaky sole npm source: npm survives connection resets with its
// own retries (fetch-retries 2), so resilient must leave them on when it has no other source to go to. The resets
// are deterministic (the first request of every k-th file), so the plain tool succeeds every time; through resilient
// the install must succeed too, in one attempt (npm's retries, not a restart, absorb the resets), in about the time.

/**
 * How much later than plain npm resilient may finish: its own start, the plan, reading npm's config. The two run side
 * by side, so a loaded machine stretches both; resilient's own work by as much as npm's, hence a share of npm's time
 * on top (`npm run bench` measures the difference on a quiet machine).
 */
const slackMs = (plainMs: number) => 10_000 + plainMs / 2

/**
 * A fault that resets the first request (from the moment it is set) of one path in `every`, chosen in arrival order;
 * its retry is served. npm gets through it alone, with its own retries (fetch-retries 2, the first 10 s later).
 */
function resetOneIn(every: number) {
  const seen = new Set<string>()
  return ({ path }: { path: string }) => {
    if (seen.has(path)) return { kind: 'ok' as const }
    seen.add(path)
    return seen.size % every === 0 ? { kind: 'reset' as const } : { kind: 'ok' as const }
  }
}

/** What resilient printed of its own: with the tool's retries left on, nothing (a second attempt would say so). */
const ownLines = (stderr: string) => stderr.split('\n').filter(line => /^(✖|→|…|■|✔)|attempt \d/.test(line))

/** A project depending on `count` packages, with the package-lock.json npm wrote against `registry` while it was healthy. */
async function projectOf(registry: NpmRegistry, names: string[], config: unknown): Promise<string> {
  const project = projectWithConfig(config)
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'flaky-source', version: '1.0.0', private: true,
    dependencies: Object.fromEntries(names.map(name => [name, '1.0.0'])) }))
  const locked = await execa('npm', ['install', '--package-lock-only', '--no-audit', `--registry=${registry.url}`], { cwd: project, env: isolatedEnv(), extendEnv: false, reject: false })
  expect(locked.exitCode, locked.stderr).toBe(0)
  return project
}

/** A copy of the project for each run, so neither sees the other's node_modules. */
const copyOf = (project: string) => {
  const copy = mkdtempSync(join(tmpdir(), 'resilient-copy-'))
  cpSync(project, copy, { recursive: true })
  return copy
}

const installed = (project: string) => existsSync(join(project, 'node_modules')) ? readdirSync(join(project, 'node_modules')).filter(name => !name.startsWith('.')).length : 0

/**
 * A forward HTTP proxy on 127.0.0.1 (a company proxy) that resets the connection of the first request for one path in
 * `every`, and relays the rest to the registry.
 */
async function resettingProxy(every: number): Promise<Server & { url: string; resets(): number }> {
  const choose = resetOneIn(every)
  let resets = 0
  const counts = new Map<string, number>()
  const server = createServer((incoming, outgoing) => {
    const target = new URL(incoming.url!)
    if (choose({ path: target.pathname }).kind === 'reset') {
      resets++
      return void incoming.socket.resetAndDestroy()
    }
    const upstream = httpRequest(target, { method: incoming.method, headers: { ...incoming.headers, host: target.host } }, answer => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(outgoing)
    })
    upstream.on('error', () => outgoing.destroy())
    incoming.pipe(upstream)
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  return Object.assign(server, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, resets: () => resets })
}

async function timed<T>(run: () => Promise<T>): Promise<T & { ms: number }> {
  const started = Date.now()
  const result = await run()
  return { ...result, ms: Date.now() - started }
}

describe('never worse than the plain tool: a flaky sole npm source', { timeout: 240_000 }, () => {
  const open: { close(): unknown }[] = []
  afterEach(async () => {
    for (const server of open.splice(0)) await server.close()
  })

  it('a private registry resetting the first request of 20 % of the files, 20 packages: npm ci completes through resilient as it does alone', async () => {
    const names = Array.from({ length: 20 }, (_, i) => `flaky-${i}`)
    const packages = names.map(name => buildTarball({ name, version: '1.0.0' }))
    // One registry for each run, the same packages and faults: both run at once, under the same load.
    const registry = await startNpmRegistry({ packages })
    const ours = await startNpmRegistry({ packages })
    open.push(registry, ours)
    // Named nowhere in the config: a registry resilient does not know is private, the sole source of the run.
    const project = await projectOf(registry, names, {})
    writeFileSync(join(project, '.npmrc'), `registry=${registry.url}\n`)
    const plainDir = copyOf(project)
    const throughDir = copyOf(project)
    for (const file of ['package-lock.json', '.npmrc']) writeFileSync(join(throughDir, file), readFileSync(join(throughDir, file), 'utf8').replaceAll(registry.url, ours.url))

    const lockRequests = registry.requests.length
    registry.setFault(resetOneIn(5))
    ours.setFault(resetOneIn(5))
    const [plain, through] = await Promise.all([
      timed(() => execa('npm', ['ci', '--no-audit'], { cwd: plainDir, env: isolatedEnv(), extendEnv: false, reject: false, all: true, detached: true })),
      timed(() => runCli(['npm', 'ci', '--no-audit'], { cwd: throughDir, env: isolatedEnv(), timeout: 200_000, detached: true })),
    ])
    expect(plain.exitCode, plain.all).toBe(0)
    expect(through.exitCode, through.all).toBe(0)
    expect(installed(throughDir)).toBe(20)
    expect(ownLines(through.stderr), through.stderr).toEqual([])
    // The resets did happen to both: one more request than files for each file reset, each run.
    expect(registry.requests.length - lockRequests).toBe(24)
    expect(ours.requests.length).toBe(24)
    expect(through.ms, `plain ${plain.ms} ms, through resilient ${through.ms} ms`).toBeLessThanOrEqual(plain.ms + slackMs(plain.ms))
  })

  it('at scale: 217 packages, the registry behind a company proxy resetting the first request of one file in 7 (~15 %), --no-mirrors: installed as by npm alone', async () => {
    const names = Array.from({ length: 217 }, (_, i) => `scale-${i}`)
    const packages = names.map(name => buildTarball({ name, version: '1.0.0' }))
    const registry = await startNpmRegistry({ packages })
    const mirror = await startNpmRegistry({ packages })
    open.push(registry, mirror)
    // The registry is the declared public index with a mirror beside it; --no-mirrors makes it the sole source.
    const project = await projectOf(registry, names, { npm: { index: registry.url, mirrors: [mirror.url] } })
    const plainDir = copyOf(project)
    const throughDir = copyOf(project)

    const proxies: Awaited<ReturnType<typeof resettingProxy>>[] = []
    const viaProxy = async () => {
      const proxy = await resettingProxy(7)
      proxies.push(proxy)
      open.push({ close: () => { proxy.closeAllConnections(); return new Promise(resolve => proxy.close(resolve)) } })
      // npm's second retry waits fetch-retry-maxtimeout (60 s): under test:stress a retried request sometimes failed
      // again (npm's 'attempt 2 failed with ECONNRESET', on plain npm as on npm through resilient, about one run in
      // six, cause not pinned down), and whichever side it hit lost a minute. Capped at 10 s for both sides, a stray
      // failure costs either one less than the slack; the test is about resilient leaving npm's retries alone.
      return isolatedEnv({ npm_config_proxy: proxy.url, npm_config_registry: registry.url, npm_config_fetch_retry_maxtimeout: '10000' })
    }
    // Both at once, each through its own proxy, under the same load, each in a session of its own: Linux schedules
    // sessions as groups (autogroup), and a side sharing the test runner's session shares its CPU with every worker.
    const [plainEnv, throughEnv] = [await viaProxy(), await viaProxy()]
    const [plain, through] = await Promise.all([
      timed(async () => execa('npm', ['ci', '--no-audit'], { cwd: plainDir, env: plainEnv, extendEnv: false, reject: false, all: true, detached: true })),
      timed(async () => runCli(['--no-mirrors', 'npm', 'ci', '--no-audit'], { cwd: throughDir, env: throughEnv, timeout: 200_000, detached: true })),
    ])
    expect(plain.exitCode, plain.all).toBe(0)
    expect(installed(plainDir)).toBe(217)
    expect(proxies.map(proxy => proxy.resets())).toEqual([31, 31])
    expect(through.exitCode, through.all).toBe(0)
    expect(installed(throughDir)).toBe(217)
    expect(mirror.requests).toEqual([])
    expect(ownLines(through.stderr), through.stderr).toEqual([])
    expect(through.ms, `plain ${plain.ms} ms, through resilient ${through.ms} ms`).toBeLessThanOrEqual(plain.ms + slackMs(plain.ms))
  })
})
