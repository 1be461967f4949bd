import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { createServer as createHttps, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { AUTHORIZATION, proxy, relays } from '../helpers/relay-setup.js'

// Upstream as the tool would reach it: over TLS verified with the tool's own CA bundle, through its proxy.
let cert: string
let key: string
beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), 'resilient-relay-tls-'))
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' })
  cert = readFileSync(join(dir, 'cert.pem'), 'utf8')
  key = readFileSync(join(dir, 'key.pem'), 'utf8')
})
const closing: { close(): unknown }[] = []
afterEach(() => void closing.splice(0).forEach(server => server.close()))
const relay = relays()

/** An https index with one page, its certificate signed by nobody Node trusts. */
async function tlsIndex(): Promise<{ url: string; server: Server }> {
  const server = createHttps({ cert, key }, (request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end('<a href="/files/x-1.0-py3-none-any.whl#sha256=00">x</a>')
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  closing.push(server)
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/`, server }
}

const page = (indexUrl: string) => fetch(`${indexUrl}x/`, { headers: { authorization: AUTHORIZATION } })
const source = (url: string) => ({ id: 'index', pages: `${url}simple/`, files: url })

describe('the relay reaches upstream as the tool would', () => {
  it('verifies TLS with the CA bundle the tool names, and refuses a certificate nobody vouches for', async () => {
    const { url } = await tlsIndex()
    const trusting = await relay({ protocol: 'pypi', sources: [source(url)], ca: cert, env: {} })
    const answer = await page(trusting.indexUrl)
    expect(answer.status).toBe(200)
    expect(await answer.text()).toContain(`href="${trusting.base}files/x-1.0-py3-none-any.whl#sha256=00"`)
    const untrusting = await relay({ protocol: 'pypi', sources: [source(url)], env: {} })
    expect((await page(untrusting.indexUrl)).status).toBe(502)
    expect(untrusting.tally().index!.failures).toEqual({ connect: 1 })
  })

  it('goes through HTTPS_PROXY, except for the hosts of NO_PROXY', async () => {
    const { url } = await tlsIndex()
    const through = await proxy()
    closing.push(through)
    const proxied = await relay({ protocol: 'pypi', sources: [source(url)], ca: cert, env: { HTTPS_PROXY: through.url } })
    expect((await page(proxied.indexUrl)).status).toBe(200)
    expect(through.tunnels).toEqual([new URL(url).host])
    const direct = await relay({ protocol: 'pypi', sources: [source(url)], ca: cert, env: { HTTPS_PROXY: through.url, NO_PROXY: '127.0.0.1' } })
    expect((await page(direct.indexUrl)).status).toBe(200)
    expect(through.tunnels).toHaveLength(1)
  })
})
