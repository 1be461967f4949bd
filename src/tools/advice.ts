/**
 * A tool's own spelling of the next steps a person can take: npm advice in npm terms, pip advice in
 * pip terms. Each adapter carries one; `adviceFor` turns a cause into one sentence with it. Every value is what the
 * person types (a flag for one run, a variable, or the tool's config command), never "run it through resilient".
 */
export interface AdviceSpec {
  /** More time for one run: `pip install --timeout 60 --retries 5 <package>`. Absent when the tool has no knob. */
  moreTime?: string
  /** Another index for one run: `pip install --index-url <mirror-url> <package>`. */
  mirror: string
  /** Trust a TLS-inspecting proxy's CA: `pip install --cert /path/ca.pem <package>`. */
  caBundle: string
  /** Where the tool takes a proxy besides HTTPS_PROXY/HTTP_PROXY. */
  proxy?: string
  /** Download again without the cache (after a hash mismatch). */
  noCache: string
  /** Free the tool's cache (a full disk). */
  cleanCache: string
  /** Look a name up: `pip index versions <name>`. */
  lookUp?: string
}

/** `mirrors`: another index may be suggested (never for the person's private or pinned index: dependency confusion). */
type Text = (spec: AdviceSpec, tool: string, host: string, mirrors: boolean, errno?: string) => string

// A failed connection by its error code: each calls for another check.
const CONNECTION: Record<string, string> = {
  ECONNREFUSED: '<host> refused the connection: nothing accepts connections at that address and port. Check the host and port of the index URL, and any proxy or firewall in between',
  ENETUNREACH: 'There is no route to <host> from this machine (ENETUNREACH): check that it is online (ip route; a VPN that must be up)',
  EHOSTUNREACH: 'No route to the host <host> (EHOSTUNREACH): check this machine\'s network and VPN, and that the host is up',
  ECONNRESET: 'The connection to <host> was reset (ECONNRESET): a firewall or proxy often cuts such connections; try again',
}

// A host name keeps its case; only the words "the index" start a sentence with a capital.
const cap = (host: string) => host === 'the index' ? 'The index' : host
const MIRRORS_TEST = '`resilient mirrors test` shows which mirrors answer from here.'

/**
 * The causes whose next step depends on the tool (named as the diagnosis names them); for the others the diagnosis'
 * own hint stands (a build, a venv).
 */
export type AdviceCause = 'timeout' | 'connection' | 'dns' | 'server_error' | 'rate_limited' | 'http_auth' | 'hash_mismatch'
  | 'package_not_found' | 'ssl' | 'proxy' | 'disk_full'

/** What the advice is about: the cause, and what was read about it (the host, the error code of a failed connection). */
export interface AdviceSubject {
  cause: string
  host?: string
  errno?: string
}

const TEXTS: Record<AdviceCause, Text> = {
  timeout: (s, tool, host, mirrors) => `${cap(host)} did not answer in time. Check this machine's connection (VPN, firewall, captive portal) and try again later${s.moreTime ? `; to give ${tool} more time: ${s.moreTime}` : ''}.${mirrors ? ` ${MIRRORS_TEST}` : ''}`,
  connection: (s, _tool, host, mirrors, errno) => `${CONNECTION[errno ?? ''] ?? `The connection to ${host} failed. Check this machine's connection (VPN, firewall, proxy) and try again`}`.replace(/<host>/g, host)
    + (mirrors ? `; another index for one run: ${s.mirror}. ${MIRRORS_TEST}` : '.'),
  dns: (_s, _tool, host) => `The name ${host} did not resolve. Check DNS on this machine (getent hosts ${host}; /etc/resolv.conf; in Docker: --network host, or "dns" in /etc/docker/daemon.json).`,
  server_error: (s, _tool, host, mirrors) => `${cap(host)} is failing on its side (HTTP 5xx). Try again later${mirrors ? `, or use another index for one run: ${s.mirror}` : ''}.`,
  rate_limited: (s, _tool, host, mirrors) => `${cap(host)} is rate-limiting this network (HTTP 429). Wait a few minutes before trying again${mirrors ? `, or use another index for one run: ${s.mirror}` : ''}; in CI, keep the download cache between jobs.`,
  http_auth: (s, tool, host, mirrors) => `${cap(host)} refused the request (HTTP 401/403). ${mirrors ? `A public mirror that blocks you: use another for one run (${s.mirror}). ` : ''}Your own index: give ${tool} credentials for it (a keyring, ~/.netrc, or a token in ${tool}'s own config), never on a shared command line.`,
  hash_mismatch: s => `A download arrived corrupted or changed. Download it again without the cache: ${s.noCache}. Never turn hash checking off; if the lockfile itself is out of date, regenerate it.`,
  package_not_found: (s, _tool, host) => `Check the package name and version${s.lookUp ? ` (${s.lookUp})` : ''}: ${host} does not have it.`,
  ssl: (s, tool, host) => `The TLS certificate of ${host} could not be verified. If a corporate proxy inspects TLS, give ${tool} its CA bundle: ${s.caBundle}. Check the system clock too.`,
  proxy: s => `The proxy refused or failed the request. Check HTTPS_PROXY and HTTP_PROXY${s.proxy ? ` (or ${s.proxy})` : ''}: the host, the port, and the credentials if it asks for them (HTTP 407).`,
  disk_full: (s, tool) => `The disk is full. Free space, or clean ${tool}'s cache (${s.cleanCache}), or point the temporary directory at a bigger disk (TMPDIR=/path).`,
}

/**
 * The next step for `subject` in `tool`'s own terms, or undefined when the cause does not depend on the tool.
 * `mirrors` false (a private or pinned index) leaves out every suggestion to install from elsewhere.
 */
export function adviceFor(tool: { name: string; advice?: AdviceSpec }, subject: AdviceSubject, mirrors = true): string | undefined {
  const text = Object.hasOwn(TEXTS, subject.cause) ? TEXTS[subject.cause as AdviceCause] : undefined
  if (!text || !tool.advice) return undefined
  return text(tool.advice, tool.name, subject.host ?? 'the index', mirrors, subject.errno)
}
