import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { deferExtraCaCerts } from '../../../src/own-trust.js'
import { askIndex } from '../../../src/retry/ask-index.js'
import { makeCertificates, type Certificates } from '../../support/tls-front.js'

// resilient's own small request to an index (the hedge's and the alive check's), with Node's client: what each
// answer, or the lack of one, is taken for.
const servers: Server[] = []
afterEach(() => {
  deferExtraCaCerts(undefined)
  for (const server of servers.splice(0)) server.close()
})
let certificates: Certificates
beforeAll(() => {
  certificates = makeCertificates()
})

async function listen(server: Server): Promise<number> {
  servers.push(server)
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  server.on('connection', socket => server.once('close', () => socket.destroy()))
  return (server.address() as AddressInfo).port
}

const ask = (url: string, ms = 2000) => askIndex(new URL(url), { accept: 'text/html' }, AbortSignal.timeout(ms))

describe('one request of resilient\'s own to an index', () => {
  it('takes any HTTP status for an answer, and sends the headers it is given', async () => {
    const seen: (string | undefined)[] = []
    const port = await listen(createServer((request, response) => { seen.push(request.headers.accept); response.writeHead(404).end('no') }))
    expect(await ask(`http://127.0.0.1:${port}/simple/pip/`)).toBe('answered')
    expect(seen).toEqual(['text/html'])
  })

  it('takes silence until the signal, and a refused connection, for no answer', async () => {
    const port = await listen(createServer(() => {}))
    expect(await ask(`http://127.0.0.1:${port}/`, 300)).toBe('silent')
    const closed = await listen(createServer())
    servers.pop()!.close()
    expect(await ask(`http://127.0.0.1:${closed}/`)).toBe('silent')
  })

  it('says nothing of a certificate Node distrusts; trusts NODE_EXTRA_CA_CERTS kept from Node\'s start (src/own-trust.ts)', async () => {
    const port = await listen(createHttpsServer({ cert: readFileSync(certificates.server), key: readFileSync(certificates.serverKey) }, (_request, response) => response.end('ok')))
    expect(await ask(`https://127.0.0.1:${port}/`)).toBe('unknown')
    deferExtraCaCerts(certificates.server)
    expect(await ask(`https://127.0.0.1:${port}/`)).toBe('answered')
  })
})
