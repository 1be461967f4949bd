import type { ServerResponse } from 'node:http'
import { text } from 'node:stream/consumers'
import type { RelayContext } from './context.js'
import { toolHeaders } from './headers.js'
import { decoded } from './page-transfer.js'
import type { RelayProtocol } from './context.js'
import { PROTOCOL_ADDRESSES } from './protocol-addresses.js'
import { onFiles, onPages } from './protocols.js'
import { rewritePypiHtml, rewritePypiJson, type RewrittenPage } from './pypi-pages.js'
import type { RelaySource } from './types.js'
import type { UpstreamResponse } from './upstream.js'

/**
 * A PEP 503 or 691 page, read whole (pip asks for one at a time; pages are small next to files) so that a body
 * that breaks can still be asked of the next source, then its file links pointed at the relay. Returns false when
 * the body broke before it was complete.
 */
async function sendPypiPage(context: RelayContext, response: UpstreamResponse, tool: ServerResponse, source: RelaySource): Promise<boolean> {
  let page: string
  try {
    page = await text(decoded(response))
  } catch {
    return false
  }
  const type = String(response.headers['content-type'] ?? '')
  const links = { pageUrl: response.url, relayBase: context.base, roots: context.roots }
  let rewritten: RewrittenPage = { text: page, hashes: [] }
  try {
    rewritten = /json/i.test(type) ? rewritePypiJson(page, links) : /html/i.test(type) ? rewritePypiHtml(page, links) : rewritten
  } catch {
    // Not the JSON it says it is: passed on as it is, for the tool to judge.
  }
  for (const [path, hashes] of rewritten.hashes) context.hashes.learn(path, hashes)
  const body = Buffer.from(rewritten.text)
  context.ledger.bytes(source.id, Buffer.byteLength(page), false)
  tool.writeHead(response.status, toolHeaders(response.headers, { 'content-length': String(body.length) }))
  tool.end(body)
  return true
}


/**
 * PEP 503/691: the index at `simple/`, a project's page at `simple/<name>/` (its file links pointed at the relay, their
 * `#sha256=` and `hashes` learned); anything else is a file under the root, the parent of the simple index.
 */
export const PYPI_PROTOCOL: RelayProtocol = {
  name: 'pypi',
  ...PROTOCOL_ADDRESSES.pypi,
  sendPage: sendPypiPage,
  route(path, method) {
    const page = /^simple\/(?:([^/?]+)\/?)?(?:\?.*)?$/.exec(path)
    if (method !== 'GET' && method !== 'HEAD') return { kind: 'other', upstream: onFiles(path) }
    return page ? { kind: 'page', upstream: onPages(path.slice('simple/'.length)) } : { kind: 'file', path, upstream: onFiles(path) }
  },
}

