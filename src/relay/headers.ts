import type { IncomingHttpHeaders } from 'node:http'

/**
 * Which headers cross the relay. Upstream gets what a tool would send an index (its User-Agent, conditional
 * requests, npm's `npm-*` and pacote's `pacote-*` session headers), never the relay's Authorization or a cookie.
 * The tool gets what describes the content and its caching; hop-by-hop headers and Set-Cookie stay behind.
 */
const TO_UPSTREAM = new Set(['user-agent', 'accept', 'accept-language', 'if-none-match', 'if-modified-since', 'cache-control', 'pragma', 'referer', 'content-type', 'content-length'])
const TO_TOOL = ['content-type', 'etag', 'last-modified', 'cache-control', 'expires', 'vary', 'retry-after', 'npm-notice', 'x-pypi-last-serial', 'content-language']

/** A header's value as one string (a repeated header joined, as HTTP allows). */
export const single = (value: string | string[] | undefined): string | undefined => Array.isArray(value) ? value.join(', ') : value

/** The tool's request headers to pass upstream, with `extra` (Accept-Encoding, Range) set by the relay. */
export function upstreamHeaders(headers: IncomingHttpHeaders, extra: Record<string, string>): Record<string, string> {
  const chosen: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name === 'npm-otp') continue
    if (TO_UPSTREAM.has(name) || name.startsWith('npm-') || name.startsWith('pacote-')) chosen[name] = single(value)!
  }
  return { ...chosen, ...extra }
}

/** The upstream response headers the tool gets. */
export function toolHeaders(headers: Record<string, string | string[] | undefined>, extra: Record<string, string | undefined> = {}): Record<string, string> {
  const chosen: Record<string, string> = {}
  for (const name of TO_TOOL) {
    const value = single(headers[name])
    if (value !== undefined) chosen[name] = value
  }
  for (const [name, value] of Object.entries(extra)) if (value !== undefined) chosen[name] = value
  return chosen
}

/** `bytes start-end/total` of a 206 (total undefined for `*`). */
export function contentRangeOf(value: string | string[] | undefined): { start: number; end: number; total?: number } | undefined {
  const match = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(single(value) ?? '')
  if (!match) return undefined
  return { start: Number(match[1]), end: Number(match[2]), ...(match[3] !== '*' && { total: Number(match[3]) }) }
}

/** The start of a `Range: bytes=N-` the tool sent (the form resumable downloads use), else undefined. */
export function openRangeStart(value: string | undefined): number | undefined {
  const match = /^bytes=(\d+)-$/.exec(value ?? '')
  return match ? Number(match[1]) : undefined
}

/** A Content-Length as a number, when there is a valid one. */
export function lengthOf(headers: Record<string, string | string[] | undefined>): number | undefined {
  const value = single(headers['content-length'])
  return value && /^\d+$/.test(value) ? Number(value) : undefined
}
