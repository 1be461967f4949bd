import { hashesFromObject, hashFromFragment, type ExpectedHash } from './expected-hash.js'
import { relayPathOf } from './links.js'
import { rewriteText, type TokenRule } from './token-stream.js'

/** Where a page's links go: the page's own URL (links are relative to it), the relay's base, the sources' file roots. */
export interface LinkContext {
  pageUrl: string
  relayBase: string
  roots: readonly string[]
}

export interface RewrittenPage {
  text: string
  /** Relay path → the digests the page publishes for it (the file's, and its PEP 658 metadata file's). */
  hashes: [string, ExpectedHash[]][]
}

const decodeEntities = (text: string) => text.replace(/&(amp|lt|gt|quot|#39|#x27|#(\d+));/gi, (whole, name: string, code?: string) =>
  code ? String.fromCharCode(Number(code)) : ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" } as Record<string, string>)[name.toLowerCase()] ?? whole)
const encodeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;')

/** The end of a tag that starts at `from`: the first `>` outside a quoted attribute value. */
function tagEnd(text: string, from: number): number {
  let quote = ''
  for (let i = from; i < text.length; i++) {
    const char = text[i]!
    if (quote) quote = char === quote ? '' : quote
    else if (char === '"' || char === "'") quote = char
    else if (char === '>') return i + 1
  }
  return -1
}

const ATTRIBUTE = (name: string) => new RegExp(`(\\s${name}\\s*=\\s*)("([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i')

function attribute(tag: string, name: string): string | undefined {
  const match = ATTRIBUTE(name).exec(tag)
  return match ? decodeEntities(match[3] ?? match[4] ?? match[5] ?? '') : undefined
}

/** A file URL on the relay when it lies under a source's root, else the absolute URL (never a relative one left). */
function relink(href: string, base: string, context: LinkContext): { url: string; path?: string; fragment: string } {
  let absolute: URL
  try {
    absolute = new URL(href, base)
  } catch {
    return { url: href, fragment: '' }
  }
  const fragment = absolute.hash
  absolute.hash = ''
  const path = relayPathOf(absolute.href, context.roots)
  return path ? { url: `${context.relayBase}${path}${fragment}`, path, fragment } : { url: `${absolute.href}${fragment}`, fragment }
}

/**
 * A PEP 503 page with its file links pointing at the relay: only `href` values change; hashes (`#sha256=`),
 * `data-requires-python`, `data-core-metadata`, `data-yanked` and everything else stay byte for byte. A `<base href>`
 * is honoured, as pip does, and every link comes out absolute so that it no longer matters.
 */
export function rewritePypiHtml(text: string, context: LinkContext): RewrittenPage {
  const hashes: [string, ExpectedHash[]][] = []
  let base = context.pageUrl
  const rule: TokenRule = {
    start: /<(?:a|base)(?=[\s>])/gi,
    startLength: 5,
    token(all, from, _after, final) {
      const end = tagEnd(all, from)
      if (end < 0) return final ? undefined : 'incomplete'
      const tag = all.slice(from, end)
      const href = attribute(tag, 'href')
      if (href === undefined) return undefined
      if (/^<base/i.test(tag)) {
        base = relink(href, base, { ...context, roots: [] }).url
        return undefined
      }
      const link = relink(href, base, context)
      if (link.path) {
        hashes.push([link.path, hashFromFragment(link.fragment)])
        const metadata = attribute(tag, 'data-core-metadata') ?? attribute(tag, 'data-dist-info-metadata')
        if (metadata) hashes.push([`${link.path}.metadata`, hashFromFragment(metadata)])
      }
      return { end, replacement: tag.replace(ATTRIBUTE('href'), (_whole, lead: string) => `${lead}"${encodeAttribute(link.url)}"`) }
    },
  }
  return { text: rewriteText(text, rule), hashes: hashes.filter(([, found]) => found.length) }
}

interface Pep691File {
  url?: unknown
  hashes?: unknown
  'core-metadata'?: unknown
  'dist-info-metadata'?: unknown
}

/** A PEP 691 JSON page with each `files[].url` pointing at the relay; `hashes` and all other fields untouched. */
export function rewritePypiJson(text: string, context: LinkContext): RewrittenPage {
  const page = JSON.parse(text) as { files?: Pep691File[] }
  const hashes: [string, ExpectedHash[]][] = []
  for (const file of Array.isArray(page.files) ? page.files : []) {
    if (typeof file?.url !== 'string') continue
    const link = relink(file.url, context.pageUrl, context)
    file.url = link.url
    if (!link.path) continue
    hashes.push([link.path, hashesFromObject(file.hashes)])
    const metadata = file['core-metadata'] ?? file['dist-info-metadata']
    if (metadata && typeof metadata === 'object') hashes.push([`${link.path}.metadata`, hashesFromObject(metadata)])
  }
  return { text: JSON.stringify(page), hashes: hashes.filter(([, found]) => found.length) }
}
