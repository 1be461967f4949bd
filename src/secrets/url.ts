/** URLs with credentials: what may be kept (state keys, labels) and what must travel apart from argv. */

/** Path segments that are credentials: anaconda.org `/t/<token>/`, Cloudsmith and Gemfury first segments. */
const TOKEN_SEGMENT = /(\/t\/)[^/]{6,256}(?=\/|$)/g
const TOKEN_FIRST_SEGMENT = /^(?:dl\.cloudsmith\.io|(?:pypi|npm|npm-proxy|repo)\.fury\.io)$/i

/**
 * Scheme, host and path, without userinfo, query, fragment or token path segments: what resilient may store or key
 * state on (`https://conda.anaconda.org/t/****\/chan`). Not a URL: returned without its `?…` and `#…`.
 */
export function urlWithoutSecrets(url: string): string {
  const scheme = /^([a-z][a-z0-9+.-]{0,15}:)/i.exec(url)?.[1]
  const inner = scheme?.startsWith('sparse+') ? url.slice('sparse+'.length) : url
  if (!URL.canParse(inner)) return url.replace(/[?#].*$/s, '').replace(/\/\/[^/@]*@/, '//')
  const parsed = new URL(inner)
  let path = parsed.pathname.replace(TOKEN_SEGMENT, '$1****')
  if (TOKEN_FIRST_SEGMENT.test(parsed.hostname) && !/^\/(public|basic)\//.test(path)) path = path.replace(/^\/[^/]+/, '/****')
  return `${scheme?.startsWith('sparse+') ? 'sparse+' : ''}${parsed.protocol}//${parsed.host}${path}`
}

export interface SplitUrl {
  /** The URL without userinfo. */
  url: string
  username: string
  password: string
}

/** A URL's credentials apart from it (decoded), or undefined when it carries none. */
export function splitCredentials(url: string): SplitUrl | undefined {
  const inner = url.replace(/^sparse\+/i, '')
  if (!URL.canParse(inner)) return undefined
  const parsed = new URL(inner)
  if (!parsed.username && !parsed.password) return undefined
  const username = decodeURIComponent(parsed.username)
  const password = decodeURIComponent(parsed.password)
  parsed.username = ''
  parsed.password = ''
  return { url: `${/^sparse\+/i.test(url) ? 'sparse+' : ''}${parsed.toString()}`, username, password }
}

/** Whether a URL carries a credential: userinfo, or a token path segment (conda `/t/<token>/`). */
export function hasCredentials(url: string): boolean {
  if (splitCredentials(url)) return true
  const inner = url.replace(/^sparse\+/i, '')
  if (!URL.canParse(inner)) return false
  const { hostname, pathname } = new URL(inner)
  return /\/t\/[^/]{6,256}(\/|$)/.test(pathname) || (TOKEN_FIRST_SEGMENT.test(hostname) && !/^\/(public|basic)\//.test(pathname) && pathname.length > 1)
}

/**
 * Takes a URL's userinfo off it (fetch refuses credentials in URLs) and returns it as the value of an HTTP Basic
 * `authorization` header, or undefined when it carried none.
 */
export function takeBasicAuth(url: URL): string | undefined {
  const header = url.username ? `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}` : undefined
  url.username = ''
  url.password = ''
  return header
}
