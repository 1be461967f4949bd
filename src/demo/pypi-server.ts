import type { IncomingMessage, ServerResponse } from 'node:http'
import { startFaultServer, type Fault, type FaultChoice, type FaultServer } from './fault-server.js'
import { sendBody } from './send-body.js'
import { normalizeName, type BuiltWheel } from './wheel.js'

export type { Fault } from './fault-server.js'

export interface PypiServerOptions {
  wheels: BuiltWheel[]
  /** Applied to every request, or chosen per request (simple pages vs files). */
  fault?: FaultChoice
  /** Projects (normalised names) this index does not have, or `name==version` files it lacks: a lagging mirror. */
  missing?: string[]
  /** Honour Range requests for files (default true, as PyPI's CDN does). */
  ranges?: boolean
  /**
   * Serve as PyPI does: PEP 691 JSON pages when the client prefers them, ETags on pages (If-None-Match → 304), gzip, and
   * files marked immutable for a year (`Cache-Control: max-age=365000000, immutable, public`), which pip's HTTP
   * cache keeps. Off by default: plain PEP 503 HTML, nothing cacheable.
   */
  likePypi?: boolean
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
  const likePypi = Boolean(options.likePypi)
  const respond = (path: string, fault: Fault, response: ServerResponse, _base: string, request: IncomingMessage) => {
    const isFile = path.startsWith('/files/')
    const json = likePypi && !isFile && prefersJson(request.headers.accept)
    const body = route(path, available(), json)
    if (!body) return void response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found\n')
    let bytes = body.bytes
    if (fault.kind === 'corrupt' && isFile) {
      bytes = Buffer.from(bytes)
      for (let i = Math.floor(bytes.length / 2); i < bytes.length; i += 97) bytes[i] = bytes[i]! ^ 0xff
    }
    const headers = likePypi ? { 'cache-control': isFile ? 'max-age=365000000, immutable, public' : 'max-age=600, public', vary: 'Accept, Accept-Encoding' } : undefined
    sendBody(request, response, bytes, { type: body.type, fault: isFile || fault.kind !== 'truncate' ? fault : { kind: 'ok' }, ranges: options.ranges !== false && isFile, headers, page: likePypi && !isFile })
  }
  const server = await startFaultServer({ isFile: path => path.startsWith('/files/'), respond, errorType: 'text/plain' }, options.fault)
  return { url: `${server.baseUrl}simple`, port: server.port, requests: server.requests, authorizations: server.authorizations, setFault: server.setFault, bytesSent: server.bytesSent, close: server.close }
}

const JSON_TYPE = 'application/vnd.pypi.simple.v1+json'

/** Whether an Accept header ranks PEP 691 JSON above HTML (pip 22.2+ sends `...v1+json, ...v1+html; q=0.1, text/html; q=0.01`). */
function prefersJson(accept: string | undefined): boolean {
  const quality = (type: string) => {
    const entry = (accept ?? '').split(',').map(part => part.trim()).find(part => part.split(';')[0]!.trim() === type)
    return entry ? Number(/;\s*q=([\d.]+)/.exec(entry)?.[1] ?? 1) : 0
  }
  return quality(JSON_TYPE) > Math.max(quality('text/html'), quality('application/vnd.pypi.simple.v1+html'))
}

function route(path: string, wheels: BuiltWheel[], json = false): { type: string; bytes: Buffer } | undefined {
  const html = (text: string) => ({ type: 'text/html', bytes: Buffer.from(`<!DOCTYPE html>\n<html><body>\n${text}\n</body></html>\n`) })
  const data = (value: unknown) => ({ type: JSON_TYPE, bytes: Buffer.from(JSON.stringify(value)) })
  if (path === '/simple/' || path === '/simple') {
    const names = [...new Set(wheels.map(w => normalizeName(w.name)))]
    if (json) return data({ meta: { 'api-version': '1.0' }, projects: names.map(name => ({ name })) })
    return html(names.map(name => `<a href="/simple/${name}/">${name}</a><br/>`).join('\n'))
  }
  const project = /^\/simple\/([^/]+)\/?$/.exec(path)?.[1]
  if (project) {
    const files = wheels.filter(w => normalizeName(w.name) === normalizeName(project))
    if (!files.length) return undefined
    // Relative URLs, as PEP 691 allows: resolved against the page's own URL.
    if (json) return data({ meta: { 'api-version': '1.0' }, name: normalizeName(project), files: files.map(w => ({ filename: w.filename, url: `../../files/${w.filename}`, hashes: { sha256: w.sha256 } })) })
    return html(files.map(w => `<a href="/files/${w.filename}#sha256=${w.sha256}">${escapeHtml(w.filename)}</a><br/>`).join('\n'))
  }
  const file = /^\/files\/([^/]+)$/.exec(path)?.[1]
  const wheel = wheels.find(w => w.filename === file)
  return wheel && { type: 'application/octet-stream', bytes: wheel.bytes }
}
