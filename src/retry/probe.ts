import type { Diagnosis } from '../diagnose/types.js'
import { DEFAULT_REMEDIES, isRetryableWith, nextStepFor } from '../diagnose/remedies.js'
import type { ToolAdapter } from '../tools/types.js'
import type { Source } from '../plan/types.js'
import { takeBasicAuth } from '../secrets/url.js'
import { listsPackage } from './listing.js'
import { ownFetch } from '../mirrors/probe-fetch.js'
import { usesProxy } from '../proxies.js'
import type { IndexAnswers } from './index-answers.js'

/** The index's own answer wins over the text: its cause brings its remedy, its retry verdict and its next step. */
function reclassified(diagnosis: Diagnosis, category: Diagnosis['category'], summary: string, evidence: string, facts: Diagnosis['facts']): Diagnosis {
  const remedy = DEFAULT_REMEDIES[category]
  const merged = { ...diagnosis.facts, ...facts, hostRole: undefined }
  return { ...diagnosis, category, ruleId: 'resilient-index-probe', summary, evidence: [evidence, ...diagnosis.evidence].slice(0, 4),
    facts: merged, remedy, retryable: category === 'http_auth' || isRetryableWith(category, remedy, merged), nextStep: nextStepFor(category, remedy) }
}

/** A page larger than this is not read for the listing (a packument of thousands of versions): it cannot tell. */
const LISTING_LIMIT_BYTES = 8_000_000

/**
 * The tool said "not found", and the same index, asked again, lists the package: the first answer was a transient
 * failure of the index (a 503 or a reset the tool did not retry, or logged only at debug level), which a retry of
 * the same index fixes. Said once per source: listed again after a retry, the tool's verdict stands (its files may
 * not fit this platform), with what resilient saw as evidence.
 */
function listedAnyway(diagnosis: Diagnosis, host: string, line: string, again: boolean): Diagnosis {
  if (again) return { ...diagnosis, evidence: [...diagnosis.evidence, `${line} (again)`].slice(0, 5) }
  const what = diagnosis.facts.version ? `${diagnosis.facts.package} ${diagnosis.facts.version}` : diagnosis.facts.package
  return reclassified(diagnosis, 'server_error', `${host} failed transiently: the tool found no ${what} there, yet resilient's own request got it listed`, line, { host, status: 200 })
}

/** What one index answered resilient's request for the package's page; undefined when the answer cannot tell (TLS). */
interface Answer {
  host: string
  line: string
  status?: number
  listed?: boolean
  retryAfter?: number
  failed?: { category: Diagnosis['category']; summary: string; errno?: string }
}

/** Asks one index for the package's page, as the tool would have (credentials from its URL only). */
async function ask(adapter: ToolAdapter, index: string, diagnosis: Diagnosis, timeoutMs: number): Promise<Answer | undefined> {
  const name = diagnosis.facts.package!
  const target = new URL(adapter.packageUrl!(index, name))
  const headers: Record<string, string> = { accept: 'text/html, application/json;q=0.9' }
  const authorization = takeBasicAuth(target)
  if (authorization) headers.authorization = authorization
  // host:port, so two servers on one machine (tests, local proxies) are told apart in messages.
  const host = target.host
  try {
    const response = await (await ownFetch())(target, { headers, redirect: 'follow', signal: AbortSignal.timeout(timeoutMs) })
    const status = response.status
    const readable = status === 200 && Number(response.headers.get('content-length') ?? 0) <= LISTING_LIMIT_BYTES
    const body = readable ? await response.text() : (await response.body?.cancel(), '')
    const listed = body ? listsPackage(adapter.ecosystem, body, name, diagnosis.facts.version) : undefined
    const line = `resilient asked ${host} for ${target.pathname}: HTTP ${status}${listed ? `, listing ${diagnosis.facts.version ? `${name} ${diagnosis.facts.version}` : name}` : ''}`
    return { host, line, status, listed, retryAfter: Number(response.headers.get('retry-after')) || undefined }
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause
    // Node trusts other certificates than the tool (--cert, --trusted-host, a CA bundle): a TLS failure here
    // says nothing about the index, so the tool's own diagnosis stands.
    if (/CERT|SSL|TLS/i.test(`${cause?.code ?? ''} ${cause?.message ?? ''}`)) return undefined
    const timedOut = (error as Error).name === 'TimeoutError'
    const line = `resilient asked ${host} for ${target.pathname}: ${timedOut ? 'no answer' : cause?.message ?? (error as Error).message}`
    const failed = timedOut ? { category: 'timeout' as const, summary: `${host} did not answer in time` } : failureOfCode(cause?.code, host, target.hostname)
    return { host, line, failed: { ...failed, ...(cause?.code && { errno: cause.code }) } }
  }
}

/** What an index's answer says of the failure: undefined when it says nothing new (a 404 of a verdict already proven). */
function verdictOf(diagnosis: Diagnosis, answer: Answer, again: boolean, sole: boolean): Diagnosis | undefined {
  const { host, line, status } = answer
  if (answer.listed) return listedAnyway(diagnosis, host, line, again)
  if (answer.failed) return reclassified(diagnosis, answer.failed.category, answer.failed.summary, line, { host, ...(answer.failed.errno && { errno: answer.failed.errno }) })
  if (status === 429) return reclassified(diagnosis, 'rate_limited', `${host} is rate-limiting requests (HTTP 429)`, line, { host, status, retryAfterSeconds: answer.retryAfter })
  if (status! >= 500) return reclassified(diagnosis, 'server_error', `${host} answered HTTP ${status}`, line, { host, status })
  if (status === 401 || status === 403) return reclassified(diagnosis, 'http_auth', `${host} refused access (HTTP ${status})`, line, { host, status })
  // The tool's words did not prove the package missing (pip's "(from versions: none)"); its only index's 404 does.
  if ((status === 404 || status === 410) && diagnosis.category === 'other' && sole) {
    return reclassified(diagnosis, 'package_not_found', `${host} has no ${diagnosis.facts.package} (HTTP ${status} for its page)`, line, { host, status, absence: 'status' })
  }
  return undefined
}

/**
 * An extra index of the command (pip's --extra-index-url, named after the first in "Looking in indexes:") failed: no
 * mirror of the main index stands in for it, and asking one would send it the extra index's names. Stops, saying so.
 */
function extraFailed(diagnosis: Diagnosis, answer: Answer): Diagnosis | undefined {
  const found = answer.listed || answer.failed || answer.status === 429 || answer.status! >= 500 ? verdictOf(diagnosis, answer, false, false) : undefined
  if (!found || answer.listed) return found
  const hint = `${answer.host} is an extra index of this command, and no mirror of the main index stands in for it: run the command again later, or ask whoever runs ${answer.host}.`
  return { ...found, remedy: { kind: 'give-up', hint }, retryable: false, nextStep: hint }
}

/**
 * pip says only "No matching distribution found" when the index page answers 401/403/429/5xx. One request to the
 * package's page tells a missing package from a failing index, and from one that failed only a moment ago (it lists
 * the package now). For a failure whose text proves nothing (`other` naming a package), the indexes pip names after
 * its own are asked too, without credentials (pip prints them masked): only their failures count, never their 404 or
 * 401. Skipped behind a proxy: Node's fetch would bypass it and answer a different question.
 * `again`: an earlier attempt on this source was already found listed.
 */
// Short: the tool already waited its own timeout; a healthy index answers a project page in well under a second.
export function createProbe(adapter: ToolAdapter, env: NodeJS.ProcessEnv, timeoutMs = 2000, answers?: IndexAnswers) {
  const askable = (url: string | undefined): url is string => Boolean(url && /^https?:/.test(url) && !url.includes('****') && !usesProxy(url, env))
  return async (source: Source, diagnosis: Diagnosis, again = false): Promise<Diagnosis | undefined> => {
    if (!diagnosis.facts.package || !adapter.packageUrl || !askable(source.indexUrl)) return undefined
    const others = diagnosis.category === 'other' ? (diagnosis.facts.otherIndexes ?? []) : []
    const primary = await ask(adapter, source.indexUrl, diagnosis, timeoutMs)
    // Any HTTP status is an answer; only silence is not (a refusal or a name that does not resolve says nothing of it).
    if (primary?.status !== undefined || primary?.failed?.category === 'timeout') answers?.record(source.indexUrl, primary.status !== undefined)
    const verdict = primary && verdictOf(diagnosis, primary, again, others.length === 0)
    if (verdict) return verdict
    for (const extra of others.filter(askable)) {
      const answer = await ask(adapter, extra, diagnosis, timeoutMs)
      const failed = answer && extraFailed(diagnosis, answer)
      if (failed) return failed
    }
    return undefined
  }
}

/**
 * What a failed request says by its error code (Node's, from getaddrinfo and connect), kept in the diagnosis so that
 * its advice and the policy (two indexes that do not resolve: this machine is offline) can read it.
 */
export function failureOfCode(code: string | undefined, host: string, hostname: string): { category: Diagnosis['category']; summary: string } {
  if (code && /^(ENOTFOUND|EAI_AGAIN|EAI_NONAME|EAI_NODATA|EAI_FAIL)$/.test(code)) return { category: 'dns', summary: `the name ${hostname} did not resolve (${code})` }
  if (code === 'ECONNREFUSED') return { category: 'connection', summary: `${host} refused the connection (ECONNREFUSED)` }
  if (code === 'ENETUNREACH' || code === 'EHOSTUNREACH') return { category: 'connection', summary: `${host} cannot be reached from this machine (${code})` }
  if (code === 'ECONNRESET') return { category: 'connection', summary: `the connection to ${host} was reset (ECONNRESET)` }
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return { category: 'timeout', summary: `${host} did not answer in time (${code})` }
  return { category: 'connection', summary: `the connection to ${host} failed${code ? ` (${code})` : ''}` }
}
