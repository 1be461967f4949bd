import { createServer, type Server } from 'node:http'
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { probeMirrors } from '../../../src/mirrors/speed-test.js'

// `mirrors test` takes ALL_PROXY (http or socks5) like the tools, and never sends a mirror's credentials
// over plain http to another machine.
const servers: { close(): void }[] = []
afterEach(() => { for (const server of servers.splice(0)) server.close() })

async function listen<T extends Server | ReturnType<typeof createTcpServer>>(server: T): Promise<number> {
  servers.push(server)
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

/** Answers the HTTP request on a tunnel itself, recording its request line and Authorization. */
function answerOnTunnel(socket: Socket, seen: string[]): void {
  socket.once('data', (chunk: Buffer) => answer(socket, chunk, seen))
}

function answer(socket: Socket, chunk: Buffer, seen: string[]): void {
  {
    const lines = chunk.toString('latin1').split('\r\n')
    const auth = lines.find(line => /^authorization:/i.test(line))?.replace(/^authorization:\s*/i, '') ?? '-'
    seen.push(`${lines[0]} auth=${auth}`)
    socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok')
  }
}

/** An HTTP proxy (CONNECT, as undici's ProxyAgent tunnels every request) that answers on the tunnel itself. */
async function httpProxy(seen: string[]): Promise<number> {
  const server = createServer()
  server.on('connect', (request, socket: Socket) => {
    seen.push(`CONNECT ${request.url}`)
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n')
    answerOnTunnel(socket, seen)
  })
  return listen(server)
}

/** A SOCKS5 server (no auth, CONNECT) that answers the HTTP request on the tunnel itself, recording it. */
async function socksProxy(seen: string[]): Promise<number> {
  return listen(createTcpServer((socket: Socket) => {
    let stage = 0
    socket.on('data', (chunk: Buffer) => {
      if (stage === 0) { stage = 1; socket.write(Buffer.from([5, 0])); return }
      if (stage === 1) {
        stage = 2
        const host = chunk[3] === 3 ? chunk.subarray(5, 5 + chunk[4]!).toString() : 'ip'
        seen.push(`CONNECT ${host}`)
        socket.write(Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]))
        return
      }
      answer(socket, chunk, seen)
    })
  }))
}

const target = (url: string) => ({ ecosystem: 'pypi' as const, id: 'm', url })

describe('mirrors test behind a proxy', () => {
  it('uses ALL_PROXY=http://… when no HTTP(S)_PROXY is set', async () => {
    const seen: string[] = []
    const port = await httpProxy(seen)
    const [result] = await probeMirrors([target('http://mirror.invalid/simple')], { timeoutMs: 5000, env: { ALL_PROXY: `http://127.0.0.1:${port}` } })
    expect(result!.ok, result!.error).toBe(true)
    expect(seen).toEqual(['CONNECT mirror.invalid:80', 'GET /simple/pip/ HTTP/1.1 auth=-'])
  })
  it('uses ALL_PROXY=socks5://…', async () => {
    const seen: string[] = []
    const port = await socksProxy(seen)
    const [result] = await probeMirrors([target('http://mirror.invalid/simple')], { timeoutMs: 5000, env: { all_proxy: `socks5://127.0.0.1:${port}` } })
    expect(result!.ok, result!.error).toBe(true)
    expect(seen).toEqual(['CONNECT mirror.invalid', 'GET /simple/pip/ HTTP/1.1 auth=-'])
  })
  it('never sends credentials over plain http to another machine', async () => {
    const seen: string[] = []
    const port = await httpProxy(seen)
    const [result] = await probeMirrors([target('http://corp:pw-123@mirror.invalid/simple')], { timeoutMs: 5000, env: { ALL_PROXY: `http://127.0.0.1:${port}` } })
    expect(seen).toEqual(['CONNECT mirror.invalid:80', 'GET /simple/pip/ HTTP/1.1 auth=-'])
    expect(result!.ok).toBe(true)
  })
  it('sends them to a loopback mirror', async () => {
    const seen: string[] = []
    const loopback = await listen(createServer((request, response) => {
      seen.push(`${request.url} auth=${request.headers.authorization ?? '-'}`)
      response.end('ok')
    }))
    await probeMirrors([target(`http://corp:pw-123@127.0.0.1:${loopback}/simple`)], { timeoutMs: 5000, env: {} })
    expect(seen).toEqual([`/simple/pip/ auth=Basic ${Buffer.from('corp:pw-123').toString('base64')}`])
  })
})
