import { beforeAll, describe, expect, it } from 'vitest'
import type { FaultChoice } from '../../src/demo/fault-server.js'
import { buildWheel, type BuiltWheel } from '../../src/demo/wheel.js'
import { runWithFakes } from '../helpers/fake-tools.js'
import { pypiServers } from '../helpers/e2e-setup.js'

// uv cannot be installed here. The fake uv (test/e2e/bin/uv) records how resilient starts it, and with
// FAKE_TOOL_REQUESTS=1 replays uv's own requests for `uv pip install <name>` (test/e2e/bin/uv-requests.mjs, from uv's
// source: the PEP 691 page first, the wheel's metadata by HEAD and range requests, the wheel, its sha256 checked)
// against the relay resilient starts in front of local PEP 503/691 servers with faults.
let wheels: BuiltWheel[]
beforeAll(() => {
  wheels = [buildWheel('demo-pkg', '1.0'), buildWheel('demo-pkg', '2.0', { paddingBytes: 1_500_000 })]
})
const server = pypiServers()
const filesOnly = (fault: FaultChoice) => ({ fault: (request: Parameters<Exclude<FaultChoice, { kind: string }>>[0]) => request.isFile ? typeof fault === 'function' ? fault(request) : fault : { kind: 'ok' as const } })
const pagesOnly = (fault: FaultChoice) => ({ fault: (request: Parameters<Exclude<FaultChoice, { kind: string }>>[0]) => request.isFile ? { kind: 'ok' as const } : typeof fault === 'function' ? fault(request) : fault })

async function uvInstall(index: string, mirrors: string[], env: Record<string, string> = {}) {
  return runWithFakes(['uv', 'pip', 'install', 'demo-pkg'], { config: { relay: true, pypi: { index, mirrors } }, env: { FAKE_TOOL_REQUESTS: '1', ...env } })
}

describe('uv through the relay (uv\'s requests replayed)', () => {
  it('is pointed by UV_DEFAULT_INDEX at the relay, the secret in a netrc, and installs from the mirror in one attempt when the index answers 503', async () => {
    const index = await server({ wheels, likePypi: true, fault: { kind: 'status', status: 503 } })
    const mirror = await server({ wheels, likePypi: true })
    const run = await uvInstall(index.url, [mirror.url])
    expect(run.exitCode, run.all).toBe(0)
    expect(run.attempts).toHaveLength(1)
    const [attempt] = run.attempts
    expect(attempt!.argv).toEqual(['pip', 'install', 'demo-pkg'])
    expect(run.added[0]!.UV_DEFAULT_INDEX).toMatch(/^http:\/\/127\.[\d.]+:\d+\/simple\/$/)
    expect(attempt!.argv.join(' ')).not.toMatch(/resilient|127\./)
    expect(run.added[0]!.NETRC).toMatch(/\/netrc-[0-9a-f]+$/)
    // uv's sequence, each through the relay: the page (JSON), the metadata by HEAD and two ranges, the wheel.
    expect(run.requests[0]!.map(line => line.replace(/bytes=\d+-\d+/, 'bytes=…'))).toEqual([
      'GET /simple/demo-pkg/ 200', 'HEAD /files/demo_pkg-2.0-py3-none-any.whl 200', 'GET /files/demo_pkg-2.0-py3-none-any.whl bytes=… 206',
      'GET /files/demo_pkg-2.0-py3-none-any.whl bytes=… 206', 'GET /files/demo_pkg-2.0-py3-none-any.whl 200'])
    expect(mirror.requests).toContain('/simple/demo-pkg/')
    expect(run.stderr).toMatch(/Installed 1 package\n \+ demo_pkg-2\.0-py3-none-any\.whl/)
  })

  it('a download breaking at 80 % on the index is resumed on the mirror: at most 1.1 times the file\'s bytes', async () => {
    const index = await server({ wheels, likePypi: true, ...filesOnly(({ path }) => path.endsWith('2.0-py3-none-any.whl') ? { kind: 'truncate', atFraction: 0.8 } : { kind: 'ok' }) })
    const mirror = await server({ wheels, likePypi: true })
    const run = await uvInstall(index.url, [mirror.url])
    expect(run.exitCode, run.all).toBe(0)
    expect(run.attempts).toHaveLength(1)
    // The metadata's range requests read 16 KiB and 8 KiB of the wheel before uv downloads it.
    expect(index.bytesSent() + mirror.bytesSent()).toBeLessThan(1.1 * wheels[1]!.bytes.length + 40_000)
    const sources = (run.report as unknown as { relay: { sources: Record<string, { resumedBytes: number }> } }).relay.sources
    expect(Object.values(sources).reduce((sum, source) => sum + source.resumedBytes, 0)).toBeGreaterThan(0)
  })

  it('a 429 with Retry-After on the index\'s page is waited out, and a reset on a file is taken from the mirror', async () => {
    const index = await server({ wheels, likePypi: true, fault: ({ isFile, path, count }) => isFile ? { kind: 'reset' } : path === '/simple/demo-pkg/' && count === 1 ? { kind: 'status', status: 429, retryAfter: 1 } : { kind: 'ok' } })
    const mirror = await server({ wheels, likePypi: true })
    const run = await uvInstall(index.url, [mirror.url])
    expect(run.exitCode, run.all).toBe(0)
    expect(index.requests.filter(path => path === '/simple/demo-pkg/')).toHaveLength(2)
    expect(mirror.requests.filter(path => path.startsWith('/simple/'))).toEqual([])
  })

  it('a slow index with a lagging mirror: the index\'s newest version, not the mirror\'s', async () => {
    const index = await server({ wheels, likePypi: true, ...pagesOnly({ kind: 'delay', ms: 1500 }) })
    const lagging = await server({ wheels, likePypi: true, missing: ['demo-pkg==2.0'] })
    const run = await uvInstall(index.url, [lagging.url])
    expect(run.exitCode, run.all).toBe(0)
    expect(run.stderr).toMatch(/\+ demo_pkg-2\.0-py3-none-any\.whl/)
    expect(lagging.requests.filter(path => path.startsWith('/simple/'))).toEqual([])
  })

  it('not through the relay with a private extra index merged by an unsafe index strategy, nor for uv lock', async () => {
    const index = await server({ wheels, likePypi: true })
    const corp = await server({ wheels: [], likePypi: true })
    const merged = await uvInstall(index.url, [], { UV_INDEX_STRATEGY: 'unsafe-best-match', UV_EXTRA_INDEX_URL: corp.url })
    expect(merged.added[0]!.UV_DEFAULT_INDEX).toBe(index.url)
    expect(merged.added[0]!.NETRC).toBeUndefined()
    const lock = await runWithFakes(['--dry-run', '--verbose', 'uv', 'lock'], { config: { relay: true, pypi: { index: index.url, mirrors: [] } } })
    expect(lock.stderr).toMatch(/no relay: uv lock records each package's index URL in uv\.lock/)
  })

  it('a private index (UV_DEFAULT_INDEX) is never relayed: uv goes to it as typed, no mirror is asked anything', async () => {
    const corp = await server({ wheels, likePypi: true, fault: { kind: 'status', status: 503 } })
    const mirror = await server({ wheels, likePypi: true })
    const run = await runWithFakes(['--max-attempts', '2', 'uv', 'pip', 'install', 'demo-pkg'], { config: { relay: true, pypi: { mirrors: [mirror.url] } }, env: { FAKE_TOOL_REQUESTS: '1', UV_DEFAULT_INDEX: corp.url } })
    expect(run.exitCode).not.toBe(0)
    expect(run.added).toEqual([{}, {}])
    expect(run.requests.flat().every(line => line.startsWith('GET /simple/demo-pkg/ 503'))).toBe(true)
    expect(mirror.requests).toEqual([])
  })
})
