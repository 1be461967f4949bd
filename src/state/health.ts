import { withOutcome } from './breaker.js'
import type { NetworkIdentity } from './network.js'
import { healthKey, type LearnedFix, type MirrorHealth, type Outcome, type State } from './schema.js'

/** What is remembered about `url` from this network. */
export function healthOf(state: State, network: NetworkIdentity, url: string): MirrorHealth | undefined {
  return state.networks[network.key]?.mirrors[healthKey(url)]
}

/** Adds outcomes (in place): call inside updateState. */
export function addOutcomes(state: State, network: NetworkIdentity, entries: { url: string; outcome: Outcome }[]): void {
  const entry = state.networks[network.key] ??= { label: network.label, lastSeen: 0, mirrors: {} }
  for (const { url, outcome } of entries) {
    const key = healthKey(url)
    entry.mirrors[key] = withOutcome(entry.mirrors[key], key, outcome)
    entry.lastSeen = Math.max(entry.lastSeen, outcome.at)
  }
}

export function fixKey(tool: string, category: string, failingHost: string): string {
  return `${tool} ${category} ${failingHost}`
}

/** Adds (or refreshes) a learned fix, in place. */
export function addFix(state: State, fix: Omit<LearnedFix, 'count'>): void {
  const key = fixKey(fix.tool, fix.category, fix.failingHost)
  const previous = state.fixes[key]
  state.fixes[key] = { ...fix, count: previous && previous.url === fix.url ? previous.count + 1 : 1 }
}
