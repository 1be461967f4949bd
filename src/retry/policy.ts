import type { Config } from '../config/schema.js'
import type { Diagnosis } from '../diagnose/types.js'
import { backoffMs } from './backoff.js'
import { sameIndex } from './sources.js'
import type { AttemptRecord, Source, SourcePlan } from './types.js'

export type Decision =
  | { action: 'attempt'; source: Source; waitMs: number; bypassCache: boolean; reason: string }
  | { action: 'stop'; reason: string; hint?: string }

export interface DecisionInput {
  diagnosis: Diagnosis
  source: Source
  plan: SourcePlan
  attempts: readonly AttemptRecord[]
  config: Config
  elapsedMs: number
  random?: () => number
}

const CREDENTIALS_HINT = 'The index needs credentials. Give them for this index only: a keyring or ~/.netrc entry, or the URL form https://<user>:<token>@host/... in the tool\'s own config (never on a shared command line).'
const NETWORK_DOWN_HINT = 'Check this machine\'s connection: is it online, does a VPN or captive portal need you, does DNS work (getent hosts pypi.org; /etc/resolv.conf)? Behind a corporate network, set HTTPS_PROXY. To install without a network, see offline mode (pypi.wheelhouse, npm --offline).'

function triesOn(attempts: readonly AttemptRecord[], source: Source): number {
  const index = source.indexUrl ?? source.url
  return attempts.filter(a => a.source.id === source.id || (index && (a.source.indexUrl ?? a.source.url) && sameIndex(a.source.indexUrl ?? a.source.url!, index))).length
}

function nextFallback(plan: SourcePlan, attempts: readonly AttemptRecord[]): Source | undefined {
  return plan.fallbacks.find(source => !attempts.some(a => a.source.id === source.id))
}

/** What to do after a failed attempt. Pure: all it needs is passed in. */
export function decideNext(input: DecisionInput): Decision {
  const { diagnosis, source, plan, attempts, config, elapsedMs } = input
  const random = input.random ?? Math.random
  const remedy = diagnosis.remedy
  if (remedy.kind === 'give-up') return { action: 'stop', reason: diagnosis.summary, hint: remedy.hint }
  if (diagnosis.category === 'http_auth' && (source.kind === 'private' || source.kind === 'local')) {
    return { action: 'stop', reason: diagnosis.summary, hint: CREDENTIALS_HINT }
  }
  // Two different indexes that cannot be resolved, or no route at all: this machine's network is down, and every
  // further mirror would fail the same way.
  const offlineSigns = attempts.filter(a => a.diagnosis && (a.diagnosis.category === 'dns' || /ENETUNREACH|EHOSTUNREACH/.test(a.diagnosis.facts.errno ?? '')))
  if (new Set(offlineSigns.map(a => a.source.id)).size >= 2) return { action: 'stop', reason: 'no index could be reached by name or route: the network of this machine looks down', hint: NETWORK_DOWN_HINT }
  if (attempts.length >= config.maxAttempts) {
    return { action: 'stop', reason: `all ${config.maxAttempts} attempts failed`, hint: plan.noSwitchReason ? `No mirror was tried: ${plan.noSwitchReason}.` : undefined }
  }
  const capMs = config.maxWaitSeconds * 1000
  const next = nextFallback(plan, attempts)
  const bypassCache = remedy.kind === 'switch-mirror' && Boolean(remedy.bypassCache)
  const sameAgain = (reason: string, waitMs = backoffMs(triesOn(attempts, source), capMs, random)): Decision & { action: 'attempt' } => ({ action: 'attempt', source, waitMs, bypassCache, reason })
  const switchTo = (target: Source, reason: string): Decision & { action: 'attempt' } => {
    const reused = triesOn(attempts, target)
    return { action: 'attempt', source: target, waitMs: reused ? backoffMs(reused, capMs, random) : 0, bypassCache, reason }
  }

  let decision: Decision & { action: 'attempt' }
  switch (remedy.kind) {
    case 'upstream': {
      const upstreamTried = attempts.some(a => a.source.kind === 'upstream')
      if (source.kind === 'mirror' && plan.upstream && !upstreamTried) decision = switchTo(plan.upstream, 'mirrors lag behind the upstream index: trying it once')
      else return { action: 'stop', reason: diagnosis.summary, hint: 'Check the package name and version (pip index versions <name>, npm view <name> versions); it does not exist on the index.' }
      break
    }
    case 'wait': {
      const waitMs = Math.min((diagnosis.facts.retryAfterSeconds ?? 0) * 1000 || backoffMs(triesOn(attempts, source) + 1, capMs, random), capMs)
      const requested = (diagnosis.facts.retryAfterSeconds ?? 0) * 1000
      // Another mirror now is sooner than a long Retry-After.
      if (next && (requested > capMs || waitMs > 10_000)) decision = switchTo(next, `rate-limited: trying ${next.label} instead of waiting`)
      else decision = sameAgain(`rate-limited: waiting as the index asked`, waitMs)
      break
    }
    case 'retry':
      decision = sameAgain('retrying after a pause')
      break
    case 'switch-mirror':
      // An unrecognised failure with network evidence earns one try on another source, never the same one again.
      if (remedy.once && (!next || attempts.filter(a => a.diagnosis?.ruleId === diagnosis.ruleId).length > 1)) return { action: 'stop', reason: diagnosis.summary, hint: diagnosis.nextStep }
      decision = next ? switchTo(next, `switching to ${next.label}`) : sameAgain(plan.noSwitchReason ? 'retrying the same index (no mirror allowed)' : 'no other mirror left: retrying the same index')
      break
  }
  if (elapsedMs + decision.waitMs > config.maxTotalSeconds * 1000) {
    return { action: 'stop', reason: `the time budget of ${config.maxTotalSeconds} s is spent` }
  }
  return decision
}
