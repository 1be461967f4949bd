import { MIRRORS, UPSTREAMS } from '../mirrors/index.js'
import { errnoName } from './errno.js'
import { hostFacts, retryAfterSeconds } from './evidence.js'
import type { Category, Facts, HostRole, NormalizedFailure } from './types.js'
import { hostOf } from '../url.js'

const MIRROR_HOSTS = new Set(Object.values(MIRRORS).flatMap(list => list.map(mirror => hostOf(mirror.url))))
// Public mirrors left out of the catalog (retired, or redirecting to another mirror) still appear in users' logs.
const OTHER_PUBLIC_MIRRORS = /(?:^|\.)(?:tsinghua\.edu\.cn|ustc\.edu\.cn|sjtu\.edu\.cn|bfsu\.edu\.cn|nju\.edu\.cn|aliyun\.com|huaweicloud\.com|tencent\.com|tencentyun\.com|douban\.com|npmmirror\.com|taobao\.org|goproxy\.cn|goproxy\.io|rsproxy\.cn)$/
const UPSTREAM_HOSTS = new Set([...Object.values(UPSTREAMS).map(url => hostOf(url)), 'pypi.python.org', 'registry.yarnpkg.com',
  'registry.npmjs.com', 'repo.anaconda.com', 'repo.continuum.io', 'conda.anaconda.org', 'crates.io', 'sum.golang.org'])
// Where indexes send downloads: a failure there is not the index's page failing.
const FILE_HOSTS = /^(?:files\.pythonhosted\.org|static\.crates\.io|github\.com|(?:objects|raw|release-assets)\.githubusercontent\.com|storage\.googleapis\.com)$|\.(?:r2\.cloudflarestorage\.com|s3\.amazonaws\.com|blob\.core\.windows\.net)$/

const KNOWN_ERRNO = /\b(E(?:CONNRESET|CONNREFUSED|CONNABORTED|TIMEDOUT|SOCKETTIMEDOUT|NOTFOUND|AI_AGAIN|AI_NONAME|NETUNREACH|HOSTUNREACH|ACCES|PERM|NOSPC|DQUOT|PIPE|BUSY))\b/

/** Hosts of the indexes the output or the command names: pip's `Looking in indexes:`, `-i`, `--index-url`, `--registry`. */
export function indexHosts(failure: Pick<NormalizedFailure, 'lines' | 'command'>): Set<string> {
  const hosts = new Set<string>()
  const sources = [...failure.lines.filter(line => /Looking in indexes:|--(?:index-url|extra-index-url|registry|index|default-index)\b|(?:^|\s)-i\s/.test(line)),
    (failure.command ?? []).join(' ')]
  for (const source of sources) {
    for (const url of source.match(/https?:\/\/[^\s,'"]+/g) ?? []) {
      const host = hostOf(url)
      if (host) hosts.add(host)
    }
  }
  return hosts
}

/** What the failing host is; undefined when nothing tells. */
export function hostRole(host: string, failure: NormalizedFailure, viaProxy?: boolean): HostRole | undefined {
  if (viaProxy) return 'proxy'
  if (MIRROR_HOSTS.has(host) || OTHER_PUBLIC_MIRRORS.test(host)) return 'mirror'
  if (UPSTREAM_HOSTS.has(host)) return 'upstream'
  if (FILE_HOSTS.test(host)) return 'file-host'
  return indexHosts(failure).has(host) ? 'index' : undefined
}

// Failures about a host; for these a host named near the evidence (the URL a chain was fetching) is the host at fault.
const HOST_CATEGORIES = new Set<Category>(['timeout', 'connection', 'dns', 'ssl', 'http_auth', 'rate_limited', 'server_error', 'package_not_found', 'hash_mismatch'])
const CONTEXT_LINES = 200

// Lines that name a URL for the reader, not one the tool fetched: yarn's "info Visit https://yarnpkg.com/en/docs/cli/add
// for documentation about this command.", npm's log and notice lines, links to help pages.
const NOT_FETCHED = /for documentation about this command|A complete log of this run|^npm notice|^(?:info|hint|help|note): |\b(?:see|visit|read|report (?:it|this|bugs) at)\b [^\n]{0,40}https?:|\/(?:docs?|issues|wiki|help)\b/i

/** The host of the last URL the tool fetched (the innermost cause rarely repeats the URL its chain was fetching). */
function lastNamedHost(failure: NormalizedFailure): Facts {
  const lines = failure.lines
  for (let index = lines.length - 1; index >= Math.max(0, lines.length - CONTEXT_LINES); index--) {
    if (NOT_FETCHED.test(lines[index]!)) continue
    const facts = hostFacts([lines[index]!])
    if (facts.host) return facts
  }
  return {}
}

/** Completes what a rule read: host and URL from the evidence (or the output), the host's role, errno and Retry-After. */
export function completeFacts(failure: NormalizedFailure, category: Category, evidence: readonly string[], facts: Facts = {}): Facts {
  const read = definedOnly(facts)
  const complete: Facts = { ...read }
  // Around a proxy failure every URL is the index's: only the rule knows the proxy's own address.
  const inferHost = !complete.host && !complete.viaProxy
  if (inferHost) Object.assign(complete, hostFacts(evidence), read)
  if (inferHost && !complete.host && HOST_CATEGORIES.has(category)) Object.assign(complete, lastNamedHost(failure), read)
  if (complete.host && !complete.hostRole) complete.hostRole = hostRole(complete.host, failure, complete.viaProxy)
  complete.errno ??= evidence.map(line => errnoName(line) ?? KNOWN_ERRNO.exec(line)?.[1]).find(Boolean)
  complete.retryAfterSeconds ??= retryAfterSeconds(failure.text)
  return definedOnly(complete)
}

function definedOnly(facts: Facts): Facts {
  return Object.fromEntries(Object.entries(facts).filter(([, value]) => value !== undefined)) as Facts
}
