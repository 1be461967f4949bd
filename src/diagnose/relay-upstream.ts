import { hostAndPortOf, nameOfHostLabel } from '../url.js'
import { DEFAULT_REMEDIES, isRetryableWith, nextStepFor } from './remedies.js'
import type { Category, Diagnosis, Facts, Failure, SourceAnswers } from './types.js'

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const failures = (answers: SourceAnswers) => Object.values(answers.failures).reduce<number>((sum, count) => sum + (count ?? 0), 0)
const counted = (answers: SourceAnswers) => Object.entries(answers.failures).filter(([, count]) => count).map(([kind, count]) => `${count} ${kind}`).join(', ')

// What the relay's failure kinds (src/relay/types.ts) are, where the tool saw only the relay's 502 or 504 for them.
const CAUSES: Partial<Record<string, { category: Category; errno?: string; words: string }>> = {
  reset: { category: 'connection', errno: 'ECONNRESET', words: 'reset the connection' },
  refused: { category: 'connection', errno: 'ECONNREFUSED', words: 'refused the connection' },
  connect: { category: 'connection', words: 'could not be connected to' },
  timeout: { category: 'timeout', words: 'did not answer in time' },
}

/** The cause the relay saw, where the tool took the relay's 5xx for a server error and the source failed otherwise. */
function trueCause(diagnosis: Diagnosis, failed: [string, SourceAnswers][], host: string): Diagnosis {
  const kinds = new Set(failed.flatMap(([, seen]) => Object.entries(seen.failures).filter(([, count]) => count).map(([kind]) => kind)))
  const cause = kinds.size === 1 ? CAUSES[[...kinds][0]!] : undefined
  if (diagnosis.category !== 'server_error' || !cause) return diagnosis
  const remedy = DEFAULT_REMEDIES[cause.category]
  const facts: Facts = { ...diagnosis.facts, host, ...(cause.errno && { errno: cause.errno }) }
  delete facts.status
  return { ...diagnosis, category: cause.category, summary: `${host} ${cause.words} (seen by resilient's relay)`, facts, remedy,
    retryable: isRetryableWith(cause.category, remedy, facts), nextStep: nextStepFor(cause.category, remedy) }
}

/**
 * Through resilient's relay, the tool meets only the relay's loopback address: its error names
 * `http://127.x.y.z:<port>/...`, and a diagnosis read from that text would blame the relay for what an index behind it
 * did. The relay's own count says which source failed (src/run/relay.ts): the diagnosis names that source instead,
 * by host and port (never the credentials an index URL may carry), and says what the relay saw of it. Where no
 * source behind the relay failed, the relay itself answered the tool, and the diagnosis names it as resilient's relay.
 */
export function blameBehindRelay(diagnosis: Diagnosis, failure: Failure): Diagnosis {
  const relay = failure.relay
  if (!relay) return diagnosis
  const address = relay.address.toLowerCase()
  // The bare name too ("127.191.99.98 answered HTTP 503"), unless a source behind the relay has that name as well.
  const name = nameOfHostLabel(address)
  const bare = !Object.values(relay.hosts).some(host => nameOfHostLabel(host) === name)
  const pattern = new RegExp(`${escape(address)}${bare ? `|${escape(name)}(?![\\d:])` : ''}`, 'gi')
  const names = (text: string | undefined) => Boolean(text && text.match(pattern))
  const url = diagnosis.facts.url && hostAndPortOf(diagnosis.facts.url) === address
  if (!names(diagnosis.facts.host) && !names(diagnosis.summary) && !url) return diagnosis
  const answers = Object.entries(failure.relayed ?? {}).filter(([, seen]) => failures(seen) > 0)
  const failed = answers.some(([, seen]) => seen.served === 0) ? answers.filter(([, seen]) => seen.served === 0) : answers
  const hostOfSource = (id: string) => relay.hosts[id] ?? id
  const blamed = failed.length ? hostOfSource(failed[0]![0]) : `resilient's relay (${address})`
  const seen = failed.length
    ? `resilient's relay at ${address} stands for ${failed.map(([id, counts]) => `${hostOfSource(id)} (${counts.served} served, ${counted(counts)})`).join(', ')}: the tool's messages name the relay`
    : `resilient's relay at ${address} answered the tool itself: no index behind it failed`
  const { url: _relayUrl, ...facts } = diagnosis.facts
  const named: Diagnosis = {
    ...diagnosis,
    summary: diagnosis.summary.replace(pattern, blamed),
    evidence: [...diagnosis.evidence, seen],
    facts: { ...(url ? facts : diagnosis.facts), host: names(diagnosis.facts.host) || (url && !diagnosis.facts.host) ? blamed : diagnosis.facts.host },
  }
  return failed.length ? trueCause(named, failed, blamed) : named
}
