import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServer } from 'node:tls'

/** PEM files of a server certificate for 127.0.0.1 and of a person's client certificate, both self-signed. */
export interface Certificates {
  /** The server's certificate: what the tool trusts (pip --cert). */
  server: string
  serverKey: string
  /** The person's certificate, what the server trusts. */
  client: string
  clientKey: string
  /** The client's certificate and key in one file, as pip's --client-cert takes them. */
  clientBoth: string
}

/** Makes the certificates with openssl, in a private temporary folder (the keys are 0600 there). */
export function makeCertificates(): Certificates {
  const dir = mkdtempSync(join(tmpdir(), 'resilient-client-cert-'))
  const selfSigned = (name: string, cn: string, extra: string[] = []) => execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes',
    '-keyout', join(dir, `${name}-key.pem`), '-out', join(dir, `${name}.pem`), '-days', '1', '-subj', `/CN=${cn}`, ...extra], { stdio: 'ignore' })
  selfSigned('server', '127.0.0.1', ['-addext', 'subjectAltName=IP:127.0.0.1'])
  selfSigned('client', 'a-person')
  const clientBoth = join(dir, 'client-both.pem')
  writeFileSync(clientBoth, `${readFileSync(join(dir, 'client-key.pem'), 'utf8')}${readFileSync(join(dir, 'client.pem'), 'utf8')}`, { mode: 0o600 })
  return { server: join(dir, 'server.pem'), serverKey: join(dir, 'server-key.pem'), client: join(dir, 'client.pem'), clientKey: join(dir, 'client-key.pem'), clientBoth }
}

/**
 * https on 127.0.0.1 in front of a plain-http server on `port`, with the plain server's faults and request log behind
 * it; with `clientCertificate`, answering only a client that presents the person's certificate. The front passes the
 * bytes through (TLS ends here), so the server's links, absolute paths, stay right.
 */
export async function startTlsFront(port: number, certificates: Certificates, options: { clientCertificate: boolean }): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>()
  const wanted = options.clientCertificate ? { ca: readFileSync(certificates.client), requestCert: true, rejectUnauthorized: true } : {}
  const front = createServer({ cert: readFileSync(certificates.server), key: readFileSync(certificates.serverKey), ...wanted }, secure => {
    const upstream = connect(port, '127.0.0.1')
    for (const socket of [secure, upstream]) {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
    }
    secure.pipe(upstream).pipe(secure)
    upstream.on('error', () => secure.destroy())
    secure.on('error', () => upstream.destroy())
  })
  await new Promise<void>(resolve => front.listen(0, '127.0.0.1', resolve))
  return {
    port: (front.address() as AddressInfo).port,
    close: () => new Promise(resolve => {
      for (const socket of sockets) socket.destroy()
      front.close(() => resolve())
    }),
  }
}
