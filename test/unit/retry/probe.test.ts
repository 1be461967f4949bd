import { execFileSync } from 'node:child_process'
import { createServer as createHttps } from 'node:https'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { diagnose } from '../../../src/diagnose/index.js'
import { createProbe } from '../../../src/retry/probe.js'
import type { Source } from '../../../src/retry/types.js'
import { TOOLS } from '../../../src/tools/index.js'

const NOT_FOUND = diagnose({ tool: 'pip', output: 'ERROR: Could not find a version that satisfies the requirement demo-pkg (from versions: none)\nERROR: No matching distribution found for demo-pkg' })
const servers: Server[] = []
afterEach(() => servers.splice(0).forEach(server => server.close()))

async function listen(server: Server): Promise<number> {
  servers.push(server)
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

const source = (indexUrl: string): Source => ({ id: 'primary', url: undefined, indexUrl, kind: 'private', label: 'test' })
const probe = createProbe(TOOLS.pip, {}, 500)

describe('asking the index when pip only says "no matching distribution"', () => {
  it.each([
    [503, 'server_error'], [429, 'rate_limited'], [403, 'http_auth'], [401, 'http_auth'],
  ])('HTTP %i on the project page is %s', async (status, category) => {
    const port = await listen(createServer((_, response) => response.writeHead(status, { 'retry-after': '7' }).end()))
    const result = await probe(source(`http://127.0.0.1:${port}/simple`), NOT_FOUND)
    expect(result?.category).toBe(category)
    if (status === 429) expect(result?.facts.retryAfterSeconds).toBe(7)
  })

  it('keeps "package not found" when the index says 404', async () => {
    const port = await listen(createServer((_, response) => response.writeHead(404).end()))
    expect(await probe(source(`http://127.0.0.1:${port}/simple`), NOT_FOUND)).toBeUndefined()
  })

  it('calls an index that never answers a timeout', async () => {
    const port = await listen(createServer(() => {}))
    expect((await probe(source(`http://127.0.0.1:${port}/simple`), NOT_FOUND))?.category).toBe('timeout')
  })

  it('leaves the verdict to the tool when only Node distrusts the certificate (the tool may trust it)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'probe-tls-'))
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' })
    const server = createHttps({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (_, response) => response.writeHead(404).end())
    const port = await listen(server as unknown as Server)
    expect(await probe(source(`https://127.0.0.1:${port}/simple`), NOT_FOUND)).toBeUndefined()
  })

  it('does not ask behind a proxy: Node would bypass it', async () => {
    const port = await listen(createServer((_, response) => response.writeHead(503).end()))
    const viaProxy = createProbe(TOOLS.pip, { HTTP_PROXY: 'http://proxy.example:3128' }, 500)
    expect(await viaProxy(source(`http://127.0.0.1:${port}/simple`), NOT_FOUND)).toBeUndefined()
  })
})

describe('the probe verdict wins over the text', () => {
  it('brings the next step of the cause it found, not the missing package\'s', async () => {
    const port = await listen(createServer((_, response) => response.writeHead(503).end()))
    const result = await probe(source(`http://127.0.0.1:${port}/simple`), NOT_FOUND)
    expect(NOT_FOUND.nextStep).toMatch(/Check the name/)
    expect(result).toMatchObject({ category: 'server_error', retryable: true, remedy: { kind: 'switch-mirror' } })
    expect(result?.nextStep).not.toMatch(/Check the name/)
  })
})
