import { createServer, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { probeMirrors, rankResults } from '../../../src/mirrors/speed-test.js'

const servers: { server: Server; sockets: Set<Socket> }[] = []
afterEach(() => {
  for (const { server, sockets } of servers.splice(0)) {
    for (const socket of sockets) socket.destroy()
    server.close()
  }
})

/** A local index answering after `delayMs` with `status`, or never (`hang`). */
async function index(behaviour: { status?: number; delayMs?: number; hang?: boolean; redirect?: string }, seen: string[] = []): Promise<string> {
  const sockets = new Set<Socket>()
  const server = createServer((request, response) => {
    seen.push(`${request.url} ${request.headers.authorization ?? ''}`.trim())
    if (behaviour.hang) return
    setTimeout(() => {
      if (behaviour.redirect) response.writeHead(302, { location: behaviour.redirect }).end()
      else response.writeHead(behaviour.status ?? 200, { 'content-type': 'text/html' }).end('<a href="x">pip-1.0.tar.gz</a>')
    }, behaviour.delayMs ?? 0)
  })
  server.on('connection', socket => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  servers.push({ server, sockets })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/simple`
}

describe('probeMirrors', () => {
  it('probes all at once: hanging mirrors cost one timeout, not one each', async () => {
    // Structural, not timed: every hanging mirror must have been asked before the first probe gave up on its own.
    // One after another, the second would be asked only after the first timed out.
    const asked: number[] = []
    const recorder = () => ({ push: () => asked.push(Date.now()) }) as unknown as string[]
    const targets = await Promise.all([index({ hang: true }, recorder()), index({ hang: true }, recorder()), index({ hang: true }, recorder()), index({ delayMs: 30 })])
    const mirrors = targets.map((url, i) => ({ ecosystem: 'pypi' as const, id: `m${i}`, url }))
    const started = Date.now()
    const results = await probeMirrors(mirrors, { timeoutMs: 800, env: {} })
    expect(asked).toHaveLength(3)
    expect(Math.max(...asked) - started).toBeLessThan(800)
    expect(results.map(result => result.ok)).toEqual([false, false, false, true])
    expect(results[0]!.error).toBe('no answer in 0.8 s')
  })

  it('asks for the PEP 503 page of pip, follows redirects, and sends URL credentials as a header', async () => {
    const seen: string[] = []
    const target = await index({}, seen)
    const redirecting = await index({ redirect: `${target}/pip/` })
    const withCredentials = redirecting.replace('http://', 'http://alice:pw@')
    const [result] = await probeMirrors([{ ecosystem: 'pypi', id: 'r', url: withCredentials }], { timeoutMs: 2000, env: {} })
    expect(result).toMatchObject({ ok: true, status: 200 })
    expect(seen).toEqual(['/simple/pip/'])
  })

  it('counts an error status as a failure, never as a speed', async () => {
    const [failing] = await probeMirrors([{ ecosystem: 'pypi', id: 'x', url: await index({ status: 503 }) }], { timeoutMs: 2000, env: {} })
    expect(failing).toMatchObject({ ok: false, status: 503, error: 'HTTP 503' })
    expect(failing!.latencyMs).toBeUndefined()
  })

  it('reports a refused connection', async () => {
    const closed = createServer()
    await new Promise<void>(resolve => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise(resolve => closed.close(resolve))
    const [refused] = await probeMirrors([{ ecosystem: 'pypi', id: 'x', url: `http://127.0.0.1:${port}/simple` }], { timeoutMs: 2000, env: {} })
    expect(refused).toMatchObject({ ok: false, error: 'ECONNREFUSED' })
  })
})

describe('rankResults', () => {
  it('puts answers first, fastest first, and failures after in their order', () => {
    const base = { ecosystem: 'pypi' as const, url: 'u' }
    const ranked = rankResults([
      { ...base, id: 'fail-fast', ok: false, status: 503, error: 'HTTP 503' },
      { ...base, id: 'slow', ok: true, status: 200, latencyMs: 300 },
      { ...base, id: 'hang', ok: false, error: 'no answer' },
      { ...base, id: 'fast', ok: true, status: 200, latencyMs: 20 },
    ])
    expect(ranked.map(result => result.id)).toEqual(['fast', 'slow', 'fail-fast', 'hang'])
  })
})
