import { createServer, request as forward } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A server reached by another host name than its own. */
export interface LocalhostFront {
  /** `http://localhost:<port>/`. */
  url: string
  close(): Promise<void>
}

/**
 * `server` (an npm registry at `http://127.0.0.1:<port>/`) at http://localhost:<port>/, the tarball links of its
 * JSON answers rewritten too: another host name than the index's 127.0.0.1, as a company registry has. Listening on
 * every address, so that localhost reaches it in either family. Used by the relay's e2e tests and the differential
 * matrix (no test runner inside).
 */
export async function frontOnLocalhost(server: { url: string; port: number }): Promise<LocalhostFront> {
  let self = ''
  const front = createServer((request, response) => {
    const headers = { ...request.headers, host: `127.0.0.1:${server.port}`, 'accept-encoding': 'identity' }
    const upstream = forward(`${server.url}${request.url!.slice(1)}`, { method: request.method, headers }, answer => {
      const chunks: Buffer[] = []
      answer.on('data', chunk => chunks.push(chunk)).on('end', () => {
        const whole = Buffer.concat(chunks)
        const body = /json/.test(answer.headers['content-type'] ?? '') ? Buffer.from(whole.toString('utf8').replaceAll(server.url, self)) : whole
        response.writeHead(answer.statusCode!, { 'content-type': answer.headers['content-type'] ?? 'application/octet-stream', 'content-length': String(body.length) }).end(body)
      })
    })
    upstream.on('error', () => response.destroy())
    request.pipe(upstream)
  })
  await new Promise<void>(resolve => front.listen(0, resolve))
  self = `http://localhost:${(front.address() as AddressInfo).port}/`
  return { url: self, close: () => new Promise(resolve => { front.closeAllConnections(); front.close(() => resolve()) }) }
}
