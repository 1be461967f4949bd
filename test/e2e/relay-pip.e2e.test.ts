import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { beforeAll, describe, expect } from 'vitest'
import type { Fault } from '../../src/demo/fault-server.js'
import { buildWheel, type BuiltWheel } from '../../src/demo/wheel.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { command, describeNeeding, itNeeding } from '../helpers/requirements.js'
import { filesIn, pypiServers } from '../helpers/e2e-setup.js'
import { NO_HEDGE, pipCredentials, pypiSource, relays } from '../helpers/relay-setup.js'

// Real pip pointed straight at a relay in front of local PEP 503 servers with faults.
let wheels: BuiltWheel[]
beforeAll(() => {
  wheels = [buildWheel('demo-pkg', '1.0'), buildWheel('demo-pkg', '2.0', { paddingBytes: 2_000_000 }), buildWheel('other-pkg', '1.0', { paddingBytes: 300_000 })]
})
const server = pypiServers()
const relay = relays()
const PIP = command('pip')
const filesOnly = (fault: Fault) => ({ fault: ({ isFile }: { isFile: boolean }) => isFile ? fault : { kind: 'ok' as const } })

async function pip(verb: 'download' | 'install', indexUrl: string, options: { dest?: string; env?: Record<string, string>; specs?: string[] } = {}) {
  const dest = options.dest ?? mkdtempSync(join(tmpdir(), 'resilient-relay-pip-'))
  const where = verb === 'download' ? ['-d', dest] : ['--target', dest]
  // pip keeps plain-http answers in its HTTP cache only from a trusted host (pip/_internal/network/session.py): the
  // index is trusted as an https index would be, and the relay is trusted the same way.
  const trusted = ['--trusted-host', new URL(indexUrl).host]
  const result = await execa('python3', ['-m', 'pip', verb, '--no-deps', ...where, '--index-url', indexUrl, ...trusted, ...(options.specs ?? ['demo-pkg==2.0'])],
    { reject: false, all: true, env: options.env ?? { ...isolatedEnv(), ...pipCredentials() }, extendEnv: false, timeout: 60_000 })
  return { ...result, dest }
}
const wheelSha = (dir: string) => createHash('sha256').update(readFileSync(join(dir, wheels[1]!.filename))).digest('hex')

describeNeeding(PIP, 'real pip through the relay', () => {
  itNeeding(PIP, 'installs a file that breaks in the middle on every source: each break resumed on the other', async () => {
    const index = await server({ wheels, ...filesOnly({ kind: 'truncate', atFraction: 0.45 }) })
    const mirror = await server({ wheels, ...filesOnly({ kind: 'truncate', atFraction: 0.45 }) })
    // No hedging: on a loaded machine a slow start would have the other source asked for the whole file, not a resume.
    const front = await relay({ protocol: 'pypi', sources: [pypiSource(index, 'index'), pypiSource(mirror, 'mirror')], hedge: NO_HEDGE })
    const result = await pip('download', front.indexUrl)
    expect(result.exitCode, result.all).toBe(0)
    expect(wheelSha(result.dest)).toBe(wheels[1]!.sha256)
    const resumes = front.events.filter(event => event.kind === 'resume')
    expect(resumes.map(event => event.kind === 'resume' && [event.from, event.to])).toEqual([['index', 'mirror'], ['mirror', 'index']])
  })

  itNeeding(PIP, 'an index that answers after 3.5 s, a fast mirror: the page is waited for on the index, the file hedged on the mirror', async () => {
    const index = await server({ wheels, fault: { kind: 'delay', ms: 3500 } })
    const mirror = await server({ wheels })
    const front = await relay({ protocol: 'pypi', sources: [pypiSource(index, 'index'), pypiSource(mirror, 'mirror')] })
    const result = await pip('download', front.indexUrl)
    expect(result.exitCode, result.all).toBe(0)
    const tally = front.tally()
    expect(tally.index!.hedged).toBe(1)
    expect([tally.index!.served, tally.mirror!.served]).toEqual([1, 1])
    expect(mirror.requests.filter(path => path.startsWith('/simple/'))).toEqual([])
  })

  itNeeding(PIP, 'waits for a 429\'s Retry-After on a sole index, then asks it again', async () => {
    const index = await server({ wheels, fault: ({ isFile }) => isFile ? { kind: 'ok' } : { kind: 'status', status: 429, retryAfter: 1, times: 1 } })
    const front = await relay({ protocol: 'pypi', sources: [pypiSource(index, 'index')] })
    const result = await pip('download', front.indexUrl)
    expect(result.exitCode, result.all).toBe(0)
    expect(index.requests.filter(path => path === '/simple/demo-pkg/')).toHaveLength(2)
    expect(front.tally().index!.failures).toEqual({ 'rate-limited': 1 })
  })

  itNeeding(PIP, 'gets a file one mirror lacks from the next, booking the 404 on that mirror only', async () => {
    const index = await server({ wheels, ...filesOnly({ kind: 'reset' }) })
    const lagging = await server({ wheels, missing: ['demo-pkg==2.0'] })
    const mirror = await server({ wheels })
    const front = await relay({ protocol: 'pypi', sources: [pypiSource(index, 'index'), pypiSource(lagging, 'lagging'), pypiSource(mirror, 'mirror')] })
    const result = await pip('download', front.indexUrl)
    expect(result.exitCode, result.all).toBe(0)
    const tally = front.tally()
    expect([tally.index!.failures, tally.lagging!.failures, tally.mirror!.failures]).toEqual([{ reset: 1 }, { 'not-found': 1 }, {}])
  })

  itNeeding(PIP, 'streams a file on a slow link from its first byte: pip, with a read timeout shorter than the download, never waits on the digest', async () => {
    // 300 kB at 50 kB/s: six seconds, twice pip's read timeout here. Held until its digest checked, pip would hear nothing.
    const slow = [buildWheel('demo-pkg', '2.0', { paddingBytes: 300_000 })]
    const trickle = { fault: ({ isFile }: { isFile: boolean }) => isFile ? { kind: 'trickle' as const, bytesPerSecond: 50_000 } : { kind: 'ok' as const } }
    const index = await server({ wheels: slow, ...trickle })
    const mirror = await server({ wheels: slow, ...trickle })
    for (const sources of [[pypiSource(index, 'index')], [pypiSource(index, 'index'), pypiSource(mirror, 'mirror')]]) {
      const front = await relay({ protocol: 'pypi', sources })
      const before = index.bytesSent() + mirror.bytesSent()
      const result = await pip('download', front.indexUrl, { specs: ['demo-pkg==2.0', '--timeout', '3', '--retries', '0'] })
      expect(result.exitCode, result.all).toBe(0)
      expect(createHash('sha256').update(readFileSync(join(result.dest, slow[0]!.filename))).digest('hex')).toBe(slow[0]!.sha256)
      expect(index.bytesSent() + mirror.bytesSent() - before).toBeLessThan(1.1 * slow[0]!.bytes.length + 20_000)
      await front.close()
    }
  })

  itNeeding(PIP, 'never hands pip a file that fails its hash: its download breaks, and its next try gets the good copy first', async () => {
    const index = await server({ wheels, fault: { kind: 'corrupt' } })
    const front = await relay({ protocol: 'pypi', sources: [pypiSource(index, 'index'), pypiSource(await server({ wheels }), 'mirror')] })
    const first = await pip('download', front.indexUrl)
    expect(first.exitCode).not.toBe(0)
    expect(filesIn(first.dest)).toEqual([])
    expect(front.events.filter(event => event.kind === 'hash-mismatch')).toHaveLength(1)
    const second = await pip('download', front.indexUrl)
    expect(second.exitCode, second.all).toBe(0)
    expect(wheelSha(second.dest)).toBe(wheels[1]!.sha256)
  })

  itNeeding(PIP, 'keeps pip\'s cache working as plain pip: a second install in a fresh target downloads no file, through a relay of the next run', async () => {
    const index = await server({ wheels, likePypi: true })
    const env = { ...isolatedEnv(), ...pipCredentials() }
    const specs = ['demo-pkg==2.0', 'other-pkg']
    // Plain pip first, in its own HOME: the files are cached, so the second install fetches none.
    const plainEnv = isolatedEnv()
    await pip('install', index.url, { env: plainEnv, specs })
    const plainBefore = index.requests.length
    expect((await pip('install', index.url, { env: plainEnv, specs })).exitCode).toBe(0)
    const plainFiles = index.requests.slice(plainBefore).filter(path => path.startsWith('/files/'))
    // Through the relay: two runs, each with a relay of its own on the same address, as resilient starts them.
    const first = await relay({ protocol: 'pypi', sources: [pypiSource(index, 'index')] })
    expect((await pip('install', first.indexUrl, { env, specs })).exitCode).toBe(0)
    await first.close()
    // The next run's relay: the same port, a secret of its own (no URL holds it, so no cache key does).
    const second = await relay({ protocol: 'pypi', sources: [pypiSource(index, 'index')], port: first.port, secret: 'the-next-run-has-a-secret-of-its-own' })
    expect(second.port).toBe(first.port)
    const before = index.requests.length
    const again = await pip('install', second.indexUrl, { env: { ...env, ...pipCredentials('the-next-run-has-a-secret-of-its-own') }, specs })
    expect(again.exitCode, again.all).toBe(0)
    expect(plainFiles).toEqual([])
    expect(index.requests.slice(before).filter(path => path.startsWith('/files/'))).toEqual([])
  })
})
