import { candidatesFor, type RelayContext } from './context.js'
import { race, type RaceOutcome, type RaceRequest } from './race.js'
import type { RelaySource } from './types.js'

/**
 * One page, asked as "pages are authority" says (src/relay/page-authority.ts): of the index alone while it stands,
 * the mirrors after it failed; of the index alone whatever happens when the run may not fail over (a private source
 * beside it) or has no mirror. `without` are the sources whose copy of this page already broke.
 */
export async function racePage(context: RelayContext, request: Omit<RaceRequest, 'kind' | 'candidates' | 'gate' | 'probe'>, without: ReadonlySet<RelaySource> = new Set()): Promise<RaceOutcome> {
  const { pages, index } = context
  const mirrors = pages.settings.failover ? candidatesFor(context, undefined).filter(source => source !== index && !without.has(source)) : []
  const withIndex = !without.has(index)
  if (!withIndex && !mirrors.length) return { won: false, status: 502, headers: { 'content-type': 'text/plain' }, message: 'resilient relay: the page broke on every source' }
  if (!withIndex) pages.indexFailed('truncated')
  const outcome = await race(context, {
    ...request, kind: 'page', candidates: withIndex ? [index, ...mirrors] : mirrors,
    ...(withIndex && mirrors.length && !pages.down && { gate: { source: index, silentMs: pages.settings.silentMs, opened: why => pages.indexFailed(why) } }),
    ...(withIndex && mirrors.length && pages.down && { probe: { source: index, silentMs: pages.settings.silentMs, answered: ok => ok && pages.indexAnswered() } }),
  })
  if (outcome.won && outcome.source === index) pages.indexAnswered()
  if (outcome.won && !request.ahead) pages.servedBy(outcome.source.id, request.path)
  return outcome
}
