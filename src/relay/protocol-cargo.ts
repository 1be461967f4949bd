import type { ServerResponse } from 'node:http'
import { text } from 'node:stream/consumers'
import type { RelayContext, RelayProtocol } from './context.js'
import { hashFromFragment } from './expected-hash.js'
import { decoded, sendPageAsIs } from './page-transfer.js'
import { PROTOCOL_ADDRESSES } from './protocol-addresses.js'
import { onPages } from './protocols.js'
import type { RelaySource } from './types.js'
import type { UpstreamResponse } from './upstream.js'

/**
 * cargo's sparse registry protocol (doc.rust-lang.org/cargo/reference/registry-index.html). Pages: `config.json` and
 * the index files (`1/a`, `3/s/syn`, `se/rd/serde`: a line of JSON per version, each with its `cksum`, the sha256 of
 * the `.crate`). Files: the `.crate` downloads, at `dl/<crate>/<version>/download` on the relay, checked against that
 * cksum. Each source says where its own downloads are (config.json `dl`, a template or a prefix), so a source's file
 * URL is its own `dl` filled in, read once per run from its config.json.
 */
const DOWNLOAD = /^dl\/([^/?]+)\/([^/?]+)\/download$/
const MARKERS = /\{(?:crate|version|prefix|lowerprefix|sha256-checksum)\}/

/** Per relay: source id → its `dl`, as its config.json says (asked once). */
const templates = new WeakMap<RelayContext, Map<string, Promise<string | undefined>>>()

function prefixOf(name: string): string {
  return name.length <= 2 ? String(name.length) : name.length === 3 ? `3/${name[0]}` : `${name.slice(0, 2)}/${name.slice(2, 4)}`
}

/** A crate's download URL from a registry's `dl` (cargo: sources/registry/mod.rs, no marker means `/{crate}/{version}/download`). */
export function downloadUrl(dl: string, crate: string, version: string, cksum = ''): string {
  const template = MARKERS.test(dl) ? dl : `${dl.replace(/\/$/, '')}/{crate}/{version}/download`
  return template.replace(/\{crate\}/g, crate).replace(/\{version\}/g, version).replace(/\{prefix\}/g, prefixOf(crate))
    .replace(/\{lowerprefix\}/g, prefixOf(crate).toLowerCase()).replace(/\{sha256-checksum\}/g, cksum)
}

async function readDl(context: RelayContext, source: RelaySource): Promise<string | undefined> {
  try {
    const response = await context.upstream(`${source.pages}config.json`, { method: 'GET', headers: { accept: 'application/json' }, signal: AbortSignal.timeout(context.pages.settings.silentMs * 2), authorization: source.authorization })
    if (response.status !== 200) return void response.body.resume()
    const dl = (JSON.parse(await text(decoded(response))) as { dl?: unknown }).dl
    return typeof dl === 'string' ? new URL(dl, `${source.pages}config.json`).href : undefined
  } catch {
    return undefined
  }
}

function known(context: RelayContext): Map<string, Promise<string | undefined>> {
  const map = templates.get(context) ?? new Map<string, Promise<string | undefined>>()
  templates.set(context, map)
  return map
}

function dlOf(context: RelayContext, source: RelaySource): Promise<string | undefined> {
  const map = known(context)
  if (!map.has(source.id)) map.set(source.id, readDl(context, source))
  return map.get(source.id)!
}

/**
 * The index's config.json with `dl` pointed at the relay and `auth-required` set, so that cargo sends its token (the
 * relay's secret) with every request, downloads included; `api` and the rest stay. Cargo.lock records neither: it
 * keeps crates.io's source id under source replacement.
 */
function sendConfig(context: RelayContext, response: UpstreamResponse, tool: ServerResponse, source: RelaySource): Promise<boolean> {
  return sendPageAsIs(context, response, tool, source, body => {
    let config: Record<string, unknown>
    try {
      config = JSON.parse(body.toString('utf8')) as Record<string, unknown>
    } catch {
      config = {}
    }
    if (typeof config.dl === 'string') known(context).set(source.id, Promise.resolve(new URL(config.dl, response.url).href))
    return Buffer.from(JSON.stringify({ ...config, dl: `${context.base}dl`, 'auth-required': true }))
  })
}

/** An index file passed on as it came, each version's cksum learned for its download. */
function sendIndexFile(context: RelayContext, response: UpstreamResponse, tool: ServerResponse, source: RelaySource): Promise<boolean> {
  return sendPageAsIs(context, response, tool, source, body => {
    for (const line of body.toString('utf8').split('\n')) {
      try {
        const entry = JSON.parse(line) as { name?: unknown; vers?: unknown; cksum?: unknown }
        if (typeof entry.name === 'string' && typeof entry.vers === 'string' && typeof entry.cksum === 'string') {
          context.hashes.learn(`dl/${entry.name}/${entry.vers}/download`, hashFromFragment(`sha256=${entry.cksum}`))
        }
      } catch {
        // Not a version line (an empty line at the end): nothing to learn.
      }
    }
    return body
  })
}

export const CARGO_PROTOCOL: RelayProtocol = {
  name: 'cargo',
  ...PROTOCOL_ADDRESSES.cargo,
  sendPage: (context, response, tool, source) => new URL(response.url).pathname.endsWith('/config.json') ? sendConfig(context, response, tool, source) : sendIndexFile(context, response, tool, source),
  route(path, method, context) {
    if (method !== 'GET' && method !== 'HEAD') return { kind: 'other', upstream: onPages(path) }
    const download = DOWNLOAD.exec(path)
    if (download && context) {
      const [, crate, version] = download
      return { kind: 'file', path, upstream: async source => {
        const dl = await dlOf(context, source)
        // A source whose config.json did not answer: its downloads are not known, and it is asked at its index's
        // own `dl` default path, where a 404 sends the request on to the next source.
        return dl ? downloadUrl(dl, crate!, version!) : `${source.pages}dl/${crate}/${version}/download`
      } }
    }
    return { kind: 'page', upstream: onPages(path) }
  },
}
