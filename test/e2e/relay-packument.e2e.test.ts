import { createServer, request, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { gzipSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { AUTHORIZATION, relays } from '../helpers/relay-setup.js'

// The packument path of the relay, driven by the body's events: its links rewritten however the body is cut, gzip
// decoded, a body that breaks ending the tool's response as broken, and a tool that leaves ending the upstream read.
const relay = relays()
const servers: Server[] = []
afterEach(() => {
  for (const server of servers.splice(0)) server.closeAllConnections()
})

const INTEGRITY = 'sha512-' + Buffer.alloc(64, 3).toString('base64')

function packument(base: string, versions = 3): string {
  return JSON.stringify({
    name: 'cut-pkg',
    'dist-tags': { latest: `1.0.${versions - 1}` },
    versions: Object.fromEntries(Array.from({ length: versions }, (_, i) => [`1.0.${i}`, {
      name: 'cut-pkg', version: `1.0.${i}`, dist: { tarball: `${base}cut-pkg/-/cut-pkg-1.0.${i}.tgz`, integrity: INTEGRITY, shasum: 'ab'.repeat(20) },
    }])),
  })
}

/** A registry whose packument answer `send` writes, however it likes. */
async function registry(send: (body: Buffer, socket: Socket, response: import('node:http').ServerResponse, base: string) => void): Promise<{ url: string; closed: Promise<void> }> {
  let closed!: () => void
  const whenClosed = new Promise<void>(resolve => { closed = resolve })
  const server = createServer((_request, response) => {
    response.on('close', closed)
    send(Buffer.from(packument(url)), response.socket!, response, url)
  })
  servers.push(server)
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  return { url, closed: whenClosed }
}

function get(url: string, onResponse?: (response: import('node:http').IncomingMessage) => void): Promise<{ status: number; body: string; complete: boolean }> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { authorization: AUTHORIZATION, accept: 'application/json' } }, response => {
      onResponse?.(response)
      let body = ''
      response.setEncoding('utf8').on('data', chunk => { body += chunk })
      response.on('end', () => resolve({ status: response.statusCode!, body, complete: response.complete }))
      response.on('error', () => resolve({ status: response.statusCode!, body, complete: false }))
      response.on('close', () => resolve({ status: response.statusCode!, body, complete: response.complete }))
    }).on('error', reject).end()
  })
}

describe('the relay on a packument', () => {
  it('rewrites every tarball link when the body comes 7 bytes at a time, gzipped, and leaves the integrity as it was', async () => {
    const index = await registry((body, _socket, response) => {
      const zipped = gzipSync(body)
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
      let at = 0
      const next = () => {
        if (at >= zipped.length) return void response.end()
        response.write(zipped.subarray(at, at += 7))
        setImmediate(next)
      }
      next()
    })
    const front = await relay({ protocol: 'npm', sources: [{ id: 'index', pages: index.url, files: index.url }], tarballs: 'relay' })
    const { status, body } = await get(`${front.base}cut-pkg`)
    expect(status).toBe(200)
    const versions = Object.values(JSON.parse(body).versions) as { dist: { tarball: string; integrity: string } }[]
    expect(versions.map(version => version.dist.tarball)).toEqual([0, 1, 2].map(i => `${front.base}cut-pkg/-/cut-pkg-1.0.${i}.tgz`))
    expect(versions.every(version => version.dist.integrity === INTEGRITY)).toBe(true)
    expect(front.tally().index!.served).toBe(1)
  })

  it('ends the response as broken when the body breaks half-way, and books it against that source', async () => {
    const index = await registry((body, socket, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) })
      response.write(body.subarray(0, body.length >> 1), () => socket.destroy())
    })
    const front = await relay({ protocol: 'npm', sources: [{ id: 'index', pages: index.url, files: index.url }] })
    const answer = await get(`${front.base}cut-pkg`)
    expect(answer.complete).toBe(false)
    expect(() => JSON.parse(answer.body)).toThrow()
    expect(front.tally().index!.failures).toEqual({ truncated: 1 })
  })

  it('stops reading upstream when the tool goes away in the middle', { timeout: 10_000 }, async () => {
    const index = await registry((body, _socket, response) => {
      // Half now, the rest never: only the tool leaving can end this.
      response.writeHead(200, { 'content-type': 'application/json' })
      response.write(body.subarray(0, body.length >> 1))
    })
    const front = await relay({ protocol: 'npm', sources: [{ id: 'index', pages: index.url, files: index.url }] })
    const answer = await get(`${front.base}cut-pkg`, response => response.once('data', () => response.destroy()))
    expect(answer.complete).toBe(false)
    await index.closed
  })

  // bun and yarn 1 keep tarballs on the index (tarballs: 'index'): the index's own page needs no rewrite, so it goes on
  // as sent, still compressed, where decoding and tokenising 44 MB of packuments made the relay bun's slowest part.
  describe('for a tool whose tarballs stay on the index', () => {
    const gzipped = () => registry((body, _socket, response) => {
      const zipped = gzipSync(body)
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(zipped.length), etag: '"v1"' })
      response.end(zipped)
    })
    const raw = (url: string, acceptEncoding?: string) => new Promise<{ headers: import('node:http').IncomingHttpHeaders; bytes: Buffer }>((resolve, reject) => {
      request(url, { headers: { authorization: AUTHORIZATION, accept: 'application/json', ...(acceptEncoding && { 'accept-encoding': acceptEncoding }) } }, response => {
        const chunks: Buffer[] = []
        response.on('data', chunk => chunks.push(chunk)).on('end', () => resolve({ headers: response.headers, bytes: Buffer.concat(chunks) }))
      }).on('error', reject).end()
    })

    it('passes the index\'s page on byte for byte, gzipped, to a tool that takes gzip', async () => {
      const index = await gzipped()
      const front = await relay({ protocol: 'npm', sources: [{ id: 'index', pages: index.url, files: index.url }], tarballs: 'index' })
      const { headers, bytes } = await raw(`${front.base}cut-pkg`, 'gzip, deflate, br, zstd')
      expect(headers['content-encoding']).toBe('gzip')
      expect(headers.etag).toBe('"v1"')
      expect(Number(headers['content-length'])).toBe(bytes.length)
      expect(bytes.equals(gzipSync(Buffer.from(packument(index.url))))).toBe(true)
      expect(front.tally().index!.served).toBe(1)
    })

    it('decodes it for a tool that did not ask for gzip (or refused it with q=0)', async () => {
      const index = await gzipped()
      const front = await relay({ protocol: 'npm', sources: [{ id: 'index', pages: index.url, files: index.url }], tarballs: 'index' })
      for (const acceptEncoding of [undefined, 'br', 'gzip;q=0']) {
        const { headers, bytes } = await raw(`${front.base}cut-pkg`, acceptEncoding)
        expect(headers['content-encoding'], acceptEncoding).toBeUndefined()
        expect(bytes.toString(), acceptEncoding).toBe(packument(index.url))
      }
    })

    it('still rewrites a mirror\'s page: its tarball links become the index\'s', async () => {
      const index = await registry((_body, _socket, response) => void response.writeHead(503).end())
      const mirror = await gzipped()
      const front = await relay({ protocol: 'npm', sources: [{ id: 'index', pages: index.url, files: index.url }, { id: 'mirror', pages: mirror.url, files: mirror.url }], tarballs: 'index' })
      const { headers, bytes } = await raw(`${front.base}cut-pkg`, 'gzip')
      expect(headers['content-encoding']).toBeUndefined()
      const versions = Object.values(JSON.parse(bytes.toString()).versions) as { dist: { tarball: string } }[]
      expect(versions.map(version => version.dist.tarball)).toEqual([0, 1, 2].map(i => `${index.url}cut-pkg/-/cut-pkg-1.0.${i}.tgz`))
    })
  })
})
