import type { ServerResponse } from 'node:http'
import { sendBody, startFaultServer, type Fault, type FaultChoice, type FaultServer } from './fault-server.js'
import { normalizeName, type BuiltWheel } from './wheel.js'

export { trickle, type Fault } from './fault-server.js'

export interface PypiServerOptions {
  wheels: BuiltWheel[]
  /** Applied to every request, or chosen per request (simple pages vs files). */
  fault?: FaultChoice
  /** Projects (normalised names) this index does not have, or `name==version` files it lacks: a lagging mirror. */
  missing?: string[]
}

export interface PypiServer extends Omit<FaultServer, 'baseUrl'> {
  /** The index URL pip takes: `http://127.0.0.1:<port>/simple`. */
  url: string
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;')
}

/** A PEP 503 "simple" index on 127.0.0.1 with fault injection, for e2e tests and `resilient demo`. */
export async function startPypiServer(options: PypiServerOptions): Promise<PypiServer> {
  const missing = new Set(options.missing ?? [])
  const available = () => options.wheels.filter(w => !missing.has(normalizeName(w.name)) && !missing.has(`${normalizeName(w.name)}==${w.version}`))
  const respond = (path: string, fault: Fault, response: ServerResponse) => {
    const body = route(path, available())
    if (!body) return void response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found\n')
    let bytes = body.bytes
    if (fault.kind === 'corrupt' && path.startsWith('/files/')) {
      bytes = Buffer.from(bytes)
      for (let i = Math.floor(bytes.length / 2); i < bytes.length; i += 97) bytes[i] = bytes[i]! ^ 0xff
    }
    response.writeHead(200, { 'content-type': body.type, 'content-length': String(bytes.length) })
    sendBody(response, bytes, path.startsWith('/files/') ? fault : { kind: 'ok' })
  }
  const server = await startFaultServer({ isFile: path => path.startsWith('/files/'), respond, errorType: 'text/plain' }, options.fault)
  return { url: `${server.baseUrl}simple`, port: server.port, requests: server.requests, authorizations: server.authorizations, setFault: server.setFault, close: server.close }
}

function route(path: string, wheels: BuiltWheel[]): { type: string; bytes: Buffer } | undefined {
  const html = (text: string) => ({ type: 'text/html', bytes: Buffer.from(`<!DOCTYPE html>\n<html><body>\n${text}\n</body></html>\n`) })
  if (path === '/simple/' || path === '/simple') {
    const names = [...new Set(wheels.map(w => normalizeName(w.name)))]
    return html(names.map(name => `<a href="/simple/${name}/">${name}</a><br/>`).join('\n'))
  }
  const project = /^\/simple\/([^/]+)\/?$/.exec(path)?.[1]
  if (project) {
    const files = wheels.filter(w => normalizeName(w.name) === normalizeName(project))
    if (!files.length) return undefined
    return html(files.map(w => `<a href="/files/${w.filename}#sha256=${w.sha256}">${escapeHtml(w.filename)}</a><br/>`).join('\n'))
  }
  const file = /^\/files\/([^/]+)$/.exec(path)?.[1]
  const wheel = wheels.find(w => w.filename === file)
  return wheel && { type: 'application/octet-stream', bytes: wheel.bytes }
}
