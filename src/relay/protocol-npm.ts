import type { ServerResponse } from 'node:http'
import { isPackageName } from '../npm-names.js'
import type { RelayContext } from './context.js'
import { toolHeaders } from './headers.js'
import type { HeldPage } from './look-ahead.js'
import { packumentRule } from './npm-pages.js'
import { accepts, decoded, streamPage, streamPageAsSent } from './page-transfer.js'
import type { RelayProtocol } from './context.js'
import { PROTOCOL_ADDRESSES } from './protocol-addresses.js'
import { onFiles, onPages } from './protocols.js'
import { TokenRewriter } from './token-stream.js'
import type { RelaySource } from './types.js'
import type { UpstreamResponse } from './upstream.js'

/** The package a packument path is for (`name`, `@scope%2fname`), or undefined for any other path. */
export function packumentName(path: string): string | undefined {
  if (path.includes('?')) return undefined
  const name = /^@[^/%]+%2f[^/%]+$/i.test(path) ? path.replace(/%2f/i, '/') : path
  return isPackageName(name) ? name : undefined
}

/** The relay path of a package's packument, as npm spells it. */
export const packumentPath = (name: string) => name.replace('/', '%2f')

const packumentRewriter = (context: RelayContext) =>
  new TokenRewriter(packumentRule({ roots: context.roots, tarballRoot: context.tarballRoot, learn: (path, hashes) => context.hashes.learn(path, hashes) }))

/**
 * The index's own packument, for a tool that fetches tarballs from the index itself (bun, yarn 1: RelaySupport.tarballs
 * `index`): the rewrite would give each tarball URL back as it is and no tarball comes here to be checked against a
 * learned digest, so the page goes on as the index sent it, still compressed. Measured with bun on create-vite's
 * react-ts template: 44 MB of packuments decoded, tokenised and sent uncompressed (docs/benchmarks.md, bench (reg)).
 */
function unchanged(context: RelayContext, source: RelaySource): boolean {
  return Boolean(context.indexPagesAsSent) && source.id === context.index.id
}

/**
 * An npm packument read whole and rewritten as sendPackument would send it, for the relay to hold until npm asks
 * (src/relay/look-ahead.ts); undefined when the body broke.
 */
async function readPackument(context: RelayContext, response: UpstreamResponse, source: RelaySource): Promise<HeldPage | undefined> {
  const rewriter = packumentRewriter(context)
  const parts: string[] = []
  let upstreamBytes = 0
  try {
    for await (const chunk of decoded(response) as AsyncIterable<Buffer>) {
      upstreamBytes += chunk.length
      parts.push(rewriter.feed(chunk))
    }
  } catch {
    return undefined
  }
  // An upstream that closed early without an error is a broken body too.
  if (response.body.readableAborted || (response.body as { aborted?: boolean }).aborted) return undefined
  parts.push(rewriter.end())
  const body = Buffer.from(parts.join(''))
  return { status: response.status, headers: toolHeaders(response.headers, { 'content-length': String(body.length) }), body, source: source.id, upstreamBytes }
}

/**
 * The npm registry: `<name>/-/<file>.tgz` (scoped: `@scope/<name>/-/...`) is a tarball; `<name>`, `@scope%2f<name>`
 * and `<name>/<version>` are packuments; `-/...` (audit, search, ping) and every other method go to the index alone.
 */
export const NPM_PROTOCOL: RelayProtocol = {
  name: 'npm',
  ...PROTOCOL_ADDRESSES.npm,
  // A packument streams through; a body that breaks ends the tool's response, nothing is asked again.
  sendPage: async (context, response, tool, source) => {
    if (unchanged(context, source) && accepts(tool, response.headers['content-encoding'])) await streamPageAsSent(context, response, tool, source)
    else await streamPage(context, response, tool, source, packumentRewriter(context))
    return true
  },
  lookAhead: { nameOf: packumentName, pathOf: packumentPath, read: readPackument },
  route(path, method) {
    if (method !== 'GET' && method !== 'HEAD') return { kind: 'other', upstream: onPages(path) }
    // yarn berry asks for a scoped tarball as `@scope%2fname/-/name-1.0.0.tgz` (plugin-npm getIdentUrl): the same
    // file, named as the packument's URL names it, so that its digest is found and every source is asked alike.
    if (/^(?:@[^/%]+(?:\/|%2f))?[^/@%]+\/-\/[^/]+\.tgz(?:\?.*)?$/i.test(path)) {
      const file = path.replace(/^(@[^/%]+)%2f/i, '$1/')
      return { kind: 'file', path: file, upstream: onFiles(file) }
    }
    if (path.startsWith('-/')) return { kind: 'other', upstream: onPages(path) }
    return { kind: 'page', upstream: onPages(path) }
  },
}

