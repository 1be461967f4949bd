import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { buildWheel } from '../../src/demo/wheel.js'
import { pypiServers } from '../helpers/e2e-setup.js'
import { AUTHORIZATION, NO_HEDGE, pypiSource, relays } from '../helpers/relay-setup.js'

// The relay on its own, between Node's fetch and local PEP 503 servers with faults: what reaches the client, and
// what each server really sent.
const WHEEL = buildWheel('big-pkg', '1.0', { paddingBytes: 4_000_000 })
const SIZE = WHEEL.bytes.length
const server = pypiServers({ wheels: [WHEEL] })
const relay = relays()
const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers: { authorization: AUTHORIZATION, ...headers } })
const fileUrl = async (indexUrl: string) => /href="([^"#]+)/.exec(await (await get(`${indexUrl}big-pkg/`)).text())![1]!
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

describe('files through the relay', () => {
  it('resumes a file that breaks at 80 % on the index from the mirror, by Range: about 1x the file fetched in all', async () => {
    const index = await server({ fault: ({ isFile }) => isFile ? { kind: 'truncate', atFraction: 0.8 } : { kind: 'ok' } })
    const mirror = await server({})
    // No hedging: on a loaded machine a slow start would have the mirror asked for the whole file, not the resume.
    const front = await relay({ protocol: 'pypi', sources: [pypiSource(index, 'index'), pypiSource(mirror, 'mirror')], hedge: NO_HEDGE })
    const url = await fileUrl(front.indexUrl)
    const before = index.bytesSent() + mirror.bytesSent()
    const body = Buffer.from(await (await get(url)).arrayBuffer())
    expect(sha(body)).toBe(WHEEL.sha256)
    // A reset may drop what was still in flight: the break is at 80 % of the file or a little before.
    expect(index.bytesSent() + mirror.bytesSent() - before).toBeLessThan(1.05 * SIZE)
    const resume = front.events.find(event => event.kind === 'resume')
    expect(resume).toMatchObject({ kind: 'resume', from: 'index', to: 'mirror', why: 'broke' })
    expect(resume?.kind === 'resume' && resume.atBytes).toBeGreaterThan(0.7 * SIZE)
    expect(front.tally().mirror!.resumedBytes).toBe(SIZE - (resume?.kind === 'resume' ? resume.atBytes : 0))
  })

  it('still delivers the file when every source breaks after 80 % of it', async () => {
    const breaking = { fault: ({ isFile }: { isFile: boolean }) => isFile ? { kind: 'truncate' as const, atFraction: 0.8 } : { kind: 'ok' as const } }
    const [index, mirror] = [await server(breaking), await server(breaking)]
    const front = await relay({ protocol: 'pypi', sources: [pypiSource(index, 'index'), pypiSource(mirror, 'mirror')] })
    const body = Buffer.from(await (await get(await fileUrl(front.indexUrl))).arrayBuffer())
    expect(sha(body)).toBe(WHEEL.sha256)
  })

  it('splices from a mirror without Range support by skipping what was sent, never sending a byte twice', async () => {
    const index = await server({ fault: ({ isFile }) => isFile ? { kind: 'truncate', atFraction: 0.5 } : { kind: 'ok' } })
    const mirror = await server({ ranges: false })
    const front = await relay({ protocol: 'pypi', sources: [pypiSource(index, 'index'), pypiSource(mirror, 'mirror')] })
    const response = await get(await fileUrl(front.indexUrl))
    expect(response.headers.get('content-length')).toBe(String(SIZE))
    expect(sha(Buffer.from(await response.arrayBuffer()))).toBe(WHEEL.sha256)
    expect(front.tally().mirror!.resumedBytes).toBeGreaterThanOrEqual(SIZE - Math.floor(0.5 * SIZE))
  })

  it('ends a streamed file of any size that fails its hash as a broken transfer, then serves the other source\'s copy', async () => {
    const small = await server({ fault: { kind: 'corrupt' } })
    const smallFront = await relay({ protocol: 'pypi', sources: [pypiSource(small, 'index'), pypiSource(await server({}), 'mirror')] })
    await expect(get(await fileUrl(smallFront.indexUrl)).then(response => response.arrayBuffer())).rejects.toThrow()
    expect(smallFront.events).toContainEqual({ kind: 'hash-mismatch', path: 'files/big_pkg-1.0-py3-none-any.whl', sources: ['index'] })
    expect(sha(Buffer.from(await (await get(await fileUrl(smallFront.indexUrl))).arrayBuffer()))).toBe(WHEEL.sha256)
    const huge = buildWheel('huge-pkg', '1.0', { paddingBytes: 6_000_000 })
    const index = await server({ wheels: [huge], fault: { kind: 'corrupt' } })
    const front = await relay({ protocol: 'pypi', sources: [pypiSource(index, 'index'), pypiSource(await server({ wheels: [huge] }), 'mirror')] })
    const url = /href="([^"#]+)/.exec(await (await get(`${front.indexUrl}huge-pkg/`)).text())![1]!
    await expect(get(url).then(response => response.arrayBuffer())).rejects.toThrow()
    expect(front.events).toContainEqual({ kind: 'hash-mismatch', path: 'files/huge_pkg-1.0-py3-none-any.whl', sources: ['index'] })
    expect(sha(Buffer.from(await (await get(url)).arrayBuffer()))).toBe(huge.sha256)
  })

  it('hands a body that went silent to another source, continuing where it stopped', async () => {
    const index = await server({ fault: ({ isFile }) => isFile ? { kind: 'truncate', atFraction: 0.3, hang: true } : { kind: 'ok' } })
    const mirror = await server({})
    const front = await relay({ protocol: 'pypi', sources: [pypiSource(index, 'index'), pypiSource(mirror, 'mirror')] })
    const body = Buffer.from(await (await get(await fileUrl(front.indexUrl))).arrayBuffer())
    expect(sha(body)).toBe(WHEEL.sha256)
    expect(front.events).toContainEqual(expect.objectContaining({ kind: 'resume', from: 'index', to: 'mirror', why: 'stalled' }))
  })

  it('answers a Range request of the tool itself (pip --resume-retries) with the bytes asked for', async () => {
    const front = await relay({ protocol: 'pypi', sources: [pypiSource(await server({}), 'index')] })
    const response = await get(await fileUrl(front.indexUrl), { range: `bytes=${SIZE - 100}-` })
    expect(response.status).toBe(206)
    expect(Buffer.from(await response.arrayBuffer()).equals(WHEEL.bytes.subarray(SIZE - 100))).toBe(true)
  })
})

describe('the relay as a server', () => {
  it('serves only requests that carry its secret: another local user gets 401 and no source is contacted', async () => {
    const index = await server({})
    const front = await relay({ protocol: 'pypi', sources: [pypiSource(index)] })
    const stranger = await fetch(`${front.indexUrl}big-pkg/`, { headers: { authorization: `Basic ${Buffer.from('resilient:guess').toString('base64')}` } })
    expect(stranger.status).toBe(401)
    expect((await fetch(`${front.indexUrl}big-pkg/`)).status).toBe(401)
    expect(index.requests).toEqual([])
  })

  it('passes ETag/304 through and decodes a gzipped page before rewriting it', async () => {
    const index = await server({ likePypi: true })
    const front = await relay({ protocol: 'pypi', sources: [pypiSource(index)] })
    const first = await get(`${front.indexUrl}big-pkg/`, { accept: 'text/html' })
    expect(await first.text()).toContain(`href="${front.base}files/`)
    const again = await get(`${front.indexUrl}big-pkg/`, { accept: 'text/html', 'if-none-match': first.headers.get('etag')! })
    expect(again.status).toBe(304)
  })

  it('serves 60 concurrent downloads over kept-alive connections, each file whole', async () => {
    const small = Array.from({ length: 20 }, (_, i) => buildWheel(`pkg-${i}`, '1.0', { paddingBytes: 50_000 }))
    const front = await relay({ protocol: 'pypi', sources: [pypiSource(await server({ wheels: small }))] })
    const results = await Promise.all(Array.from({ length: 60 }, async (_, i) => {
      const wheel = small[i % 20]!
      const page = await (await get(`${front.indexUrl}pkg-${i % 20}/`)).text()
      const body = Buffer.from(await (await get(/href="([^"#]+)/.exec(page)![1]!)).arrayBuffer())
      return sha(body) === wheel.sha256
    }))
    expect(results.every(Boolean)).toBe(true)
  })
})
