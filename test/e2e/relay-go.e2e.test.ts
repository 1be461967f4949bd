import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterEach, beforeAll, expect } from 'vitest'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli } from '../helpers/run-cli.js'
import { projectWithConfig } from '../helpers/e2e-setup.js'
import { command, describeNeeding, itNeeding } from '../helpers/requirements.js'
import { buildGoModule, startGoModuleProxy, type GoModule, type GoModuleProxy } from '../support/go-module-proxy.js'
import type { FaultChoice } from '../../src/demo/fault-server.js'

// The real go through the built CLI with the relay on: GOPROXY names the relay (https, its certificate trusted for the
// attempt through SSL_CERT_DIR, its secret in a netrc), in front of GOPROXY servers on 127.0.0.1 with faults.
const GO = command('go')
const MODULE = 'example.test/hello'
// The test module is on no checksum database: GONOSUMDB is this test's own setting (a person's, as it were), and
// go still checks every download against go.sum. -modcacherw lets the temporary folders go.
const goEnv = (extra: Record<string, string> = {}) => isolatedEnv({ GONOSUMDB: 'example.test', GOFLAGS: '-modcacherw', GO111MODULE: 'on', ...extra })
let module: GoModule
let big: GoModule
beforeAll(() => {
  module = buildGoModule(MODULE, ['v1.0.0', 'v1.1.0'])
  // 2 MB stored: a transfer that breaks at 80 % has something to resume.
  big = buildGoModule(MODULE, ['v1.0.0'], 2_000_000)
})

const proxies: GoModuleProxy[] = []
afterEach(async () => { await Promise.all(proxies.splice(0).map(proxy => proxy.close())) })
async function proxy(modules: GoModule, options: { fault?: FaultChoice; missing?: string[] } = {}): Promise<GoModuleProxy> {
  const started = await startGoModuleProxy([modules], options)
  proxies.push(started)
  return started
}

/** A project with resilient's config (the relay on) and a go.mod, as `go mod init` writes it. */
function project(config: Record<string, unknown>): string {
  const dir = projectWithConfig({ relay: true, ...config })
  writeFileSync(join(dir, 'go.mod'), 'module example.test/app\n\ngo 1.18\n')
  return dir
}
const resilient = (args: string[], cwd: string, env = goEnv()) => runCli(['-v', 'go', ...args], { cwd, env })
const goModAndSum = (dir: string) => `${readFileSync(join(dir, 'go.mod'), 'utf8')}\n${readFileSync(join(dir, 'go.sum'), 'utf8')}`
const zipRequests = (server: GoModuleProxy) => server.requests.filter(path => path.endsWith('.zip'))

describeNeeding(GO, 'real go through the relay', () => {
  itNeeding(GO, 'one 503 on every request of the index: go gets the module from the mirror in its first attempt, through the relay', async () => {
    const index = await proxy(module, { fault: { kind: 'status', status: 503 } })
    const mirror = await proxy(module)
    const dir = project({ go: { index: index.url, mirrors: [mirror.url] } })
    const result = await resilient(['get', `${MODULE}@v1.0.0`], dir)
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stderr).toMatch(/GOPROXY=https:\/\/127\.[\d.]+:\d+,direct NETRC=/)
    expect(result.stderr).toContain('done in 1 attempt')
    expect(zipRequests(mirror)).toEqual([`/${MODULE}/@v/v1.0.0.zip`])
    expect(readFileSync(join(dir, 'go.mod'), 'utf8')).toContain(`require ${MODULE} v1.0.0`)
    // No secret of the relay's reached a source.
    expect([...index.authorizations, ...mirror.authorizations]).toEqual([])
  })

  itNeeding(GO, 'go.mod and go.sum are byte for byte those of the plain go against a healthy index', async () => {
    const index = await proxy(module)
    const mirror = await proxy(module)
    const dir = project({ go: { index: index.url, mirrors: [mirror.url] } })
    const plainDir = mkdtempSync(join(tmpdir(), 'resilient-go-plain-'))
    cpSync(join(dir, 'go.mod'), join(plainDir, 'go.mod'))
    const plain = await execa('go', ['get', `${MODULE}@latest`], { cwd: plainDir, env: goEnv({ GOPROXY: `${index.url},direct` }), extendEnv: false, reject: false, all: true })
    expect(plain.exitCode, plain.all).toBe(0)
    const through = await resilient(['get', `${MODULE}@latest`], dir)
    expect(through.exitCode, through.all).toBe(0)
    expect(through.stderr).toContain('NETRC=')
    expect(goModAndSum(dir)).toBe(goModAndSum(plainDir))
    expect(goModAndSum(dir)).toContain(`${MODULE} v1.1.0 h1:`)
  })

  itNeeding(GO, 'a dead index: the run completes on the mirror in one attempt', async () => {
    const index = await proxy(module, { fault: { kind: 'blackhole' } })
    const mirror = await proxy(module)
    const dir = project({ go: { index: index.url, mirrors: [mirror.url] } })
    const result = await resilient(['mod', 'download', `${MODULE}@v1.0.0`], dir)
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stderr).toContain('done in 1 attempt')
    expect(zipRequests(mirror)).toEqual([`/${MODULE}/@v/v1.0.0.zip`])
  })

  itNeeding(GO, 'a zip that breaks at 80 % on the index is resumed on the mirror: at most 1.1× its bytes fetched', async () => {
    const zip = big.versions.get('v1.0.0')!.zip
    const index = await proxy(big, { fault: ({ path }) => path.endsWith('.zip') ? { kind: 'truncate', atFraction: 0.8 } : { kind: 'ok' } })
    const mirror = await proxy(big)
    const dir = project({ go: { index: index.url, mirrors: [mirror.url] } })
    const result = await resilient(['mod', 'download', `${MODULE}@v1.0.0`], dir)
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stderr).toContain('done in 1 attempt')
    expect(result.stderr).toMatch(/resum/i)
    // Pages and headers are a few kB; the zip itself once, plus what the break cost.
    expect(index.bytesSent() + mirror.bytesSent()).toBeLessThan(1.1 * zip.length + 20_000)
  })

  itNeeding(GO, 'a 429 with Retry-After on a sole index is waited for, then asked again', async () => {
    // The first request of all (go asks the module's list and its parent path's at once: a 429 on each would be a
    // second 429 for the relay, which then leaves the source and lets the restart loop wait instead).
    let limited = false
    const index = await proxy(module, { fault: ({ path }) => !limited && path.endsWith('/@v/list') && (limited = true) ? { kind: 'status', status: 429, retryAfter: 1 } : { kind: 'ok' } })
    const dir = project({ go: { index: index.url, mirrors: [] } })
    const result = await resilient(['get', `${MODULE}@latest`], dir)
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stderr).toContain('done in 1 attempt')
    expect(result.stderr).toContain('NETRC=')
    expect(index.requests.filter(path => path.endsWith('/@v/list')).length).toBeGreaterThanOrEqual(2)
    expect(readFileSync(join(dir, 'go.mod'), 'utf8')).toContain(`require ${MODULE} v1.1.0`)
  })

  itNeeding(GO, 'a reset on the index\'s zip: the mirror\'s copy, go\'s checksums intact', async () => {
    const index = await proxy(module, { fault: ({ path }) => path.endsWith('.zip') ? { kind: 'reset' } : { kind: 'ok' } })
    const mirror = await proxy(module)
    const dir = project({ go: { index: index.url, mirrors: [mirror.url] } })
    const result = await resilient(['get', `${MODULE}@v1.0.0`], dir)
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stderr).toContain('done in 1 attempt')
    expect(zipRequests(mirror)).toEqual([`/${MODULE}/@v/v1.0.0.zip`])
    expect(readFileSync(join(dir, 'go.sum'), 'utf8')).toContain(`${MODULE} v1.0.0 h1:`)
  })

  itNeeding(GO, 'a slow index and a lagging mirror: the index\'s versions win (v1.1.0, which the mirror does not have yet)', async () => {
    const index = await proxy(module, { fault: ({ isFile }) => isFile ? { kind: 'ok' } : { kind: 'delay', ms: 3500 } })
    const mirror = await proxy(module, { missing: ['v1.1.0'] })
    const dir = project({ go: { index: index.url, mirrors: [mirror.url] } })
    const result = await resilient(['get', `${MODULE}@latest`], dir)
    expect(result.exitCode, result.all).toBe(0)
    expect(readFileSync(join(dir, 'go.mod'), 'utf8')).toContain(`require ${MODULE} v1.1.0`)
    expect(mirror.requests.filter(path => path.endsWith('/@v/list') || path.endsWith('/@latest'))).toEqual([])
  })

  itNeeding(GO, 'a mirror\'s other bytes for a version never get past go: go.sum\'s checksum refuses them, nothing is turned off', async () => {
    const index = await proxy(module, { fault: { kind: 'status', status: 503 } })
    const mirror = await proxy(buildGoModule(MODULE, ['v1.0.0', 'v1.1.0'], 0, true))
    const healthy = await proxy(module)
    const dir = project({ go: { index: index.url, mirrors: [mirror.url] } })
    // go.sum from a healthy proxy first, as a project that has it committed.
    const seeded = await execa('go', ['get', `${MODULE}@v1.0.0`], { cwd: dir, env: goEnv({ GOPROXY: healthy.url }), extendEnv: false, reject: false, all: true })
    expect(seeded.exitCode, seeded.all).toBe(0)
    const before = goModAndSum(dir)
    // A new module cache: go must download the zip again, from the corrupt mirror.
    const result = await resilient(['mod', 'download', `${MODULE}@v1.0.0`], dir, goEnv({ GONOSUMDB: '', GOFLAGS: '-modcacherw -mod=mod' }))
    expect(result.exitCode).not.toBe(0)
    expect(result.all).toMatch(/checksum mismatch/)
    expect(result.all).toContain('SECURITY ERROR')
    expect(goModAndSum(dir)).toBe(before)
  })

  itNeeding(GO, 'a private GOPROXY is never relayed: the mirror hears nothing', async () => {
    const index = await proxy(module, { fault: { kind: 'status', status: 503 } })
    const mirror = await proxy(module)
    const dir = project({ go: { mirrors: [mirror.url] }, maxAttempts: 2, maxWaitSeconds: 1 })
    const result = await resilient(['mod', 'download', `${MODULE}@v1.0.0`], dir, goEnv({ GOPROXY: `${index.url},direct` }))
    expect(result.exitCode).not.toBe(0)
    expect(result.stderr).not.toContain('NETRC=')
    expect(mirror.requests).toEqual([])
  })

  itNeeding(GO, '--dry-run shows the relay\'s attempt and its sources', async () => {
    const dir = project({ go: { index: 'http://127.0.0.1:9', mirrors: ['http://127.0.0.1:10'] } })
    const result = await runCli(['--dry-run', 'go', 'mod', 'download'], { cwd: dir, env: goEnv() })
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stderr).toMatch(/through resilient's relay on 127\.[\d.]+:\d+, which asks for pages of 127\.0\.0\.1:9 \(of 127\.0\.0\.1:10 only once 127\.0\.0\.1:9 fails\)/)
    expect(result.stderr).toMatch(/resilient-relay\.pem: the relay's certificate, trusted for this attempt only/)
    expect(result.stdout).toMatch(/^SSL_CERT_DIR=\S+ GOPROXY=https:\/\/127\.[\d.]+:\d+,direct NETRC=\S+ go mod download/m)
  })
})
