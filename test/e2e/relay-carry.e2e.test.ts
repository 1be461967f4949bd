import { mkdtempSync, readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildWheel, type BuiltWheel } from '../../src/demo/wheel.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli } from '../helpers/run-cli.js'
import { filesIn, projectWithConfig } from '../helpers/e2e-setup.js'
import { makeCertificates, type Certificates } from '../support/tls-front.js'

// What the relay cannot carry, it does not take: an index that wants the tool's client certificate is reached by
// the tool itself, as without resilient.
let certificates: Certificates
let wheel: BuiltWheel
const pem = (path: string) => readFileSync(path, 'utf8')
beforeAll(() => {
  certificates = makeCertificates()
  wheel = buildWheel('demo-pkg', '1.0')
})
const servers: Server[] = []
afterEach(() => void servers.splice(0).forEach(server => server.close()))

/** A PEP 503 index over https that answers only a client presenting the person's certificate. */
async function indexWantingCertificate(): Promise<{ url: string; served: string[] }> {
  const served: string[] = []
  const server = createServer({ cert: pem(certificates.server), key: pem(certificates.serverKey), ca: pem(certificates.client), requestCert: true, rejectUnauthorized: true }, (request, response) => {
    served.push(request.url!)
    if (request.url === '/simple/demo-pkg/') return void response.writeHead(200, { 'content-type': 'text/html' }).end(`<a href="/files/${wheel.filename}#sha256=${wheel.sha256}">${wheel.filename}</a>`)
    if (request.url === `/files/${wheel.filename}`) return void response.writeHead(200, { 'content-length': String(wheel.bytes.length) }).end(wheel.bytes)
    response.writeHead(404).end()
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  servers.push(server)
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/simple`, served }
}

describe('what the relay cannot carry, it does not take', () => {
  it('pip --client-cert: the tool reaches an index that wants its certificate itself, as plain pip does', async () => {
    const index = await indexWantingCertificate()
    const mirror = await indexWantingCertificate()
    const cwd = projectWithConfig({ relay: true, pypi: { index: index.url, mirrors: [mirror.url] } })
    const dest = mkdtempSync(join(tmpdir(), 'resilient-client-cert-dl-'))
    // pip takes the client certificate and its key in one PEM file.
    for (const certificate of [['--client-cert', certificates.clientBoth], []]) {
      const env = isolatedEnv(certificate.length ? {} : { PIP_CLIENT_CERT: certificates.clientBoth })
      const result = await runCli(['--verbose', 'python3', '-m', 'pip', 'download', '--no-deps', '-d', dest, '--cert', certificates.server, ...certificate, 'demo-pkg'], { cwd, env })
      expect(result.exitCode, result.all).toBe(0)
      expect(result.stderr).toMatch(/no relay: pip sends a client certificate \((--client-cert|PIP_CLIENT_CERT)\), which the relay would not carry/)
    }
    expect(filesIn(dest)).toEqual([wheel.filename])
    expect(index.served).toContain('/simple/demo-pkg/')
  })
})
