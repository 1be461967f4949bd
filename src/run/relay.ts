import { relayAttempt, withRelay } from '../plan/relay.js'
import type { RunPlan } from '../plan/types.js'
import { registerSecrets, splitCredentials } from '../redact.js'
import { sameIndex } from '../url.js'
import type { AttemptWatch, Exec } from '../retry/attempts-loop.js'
import { relayBookings, type Booking } from '../state/booking.js'
import type { SecretsContext } from '../tools/source/credentials.js'
import type { ToolContext } from '../tools/types.js'
import { readFileSync } from 'node:fs'
import { relayAddress, relaySecret } from '../relay/address.js'
import { bindRelay, type BoundRelay } from '../relay/listen.js'
import { checkSources } from '../relay/source-rules.js'
import { deferRelay } from './deferred-relay.js'
import { relayCertificate } from '../relay/certificate.js'
import { describeEvent } from '../relay/describe.js'
import type { HostTally, RelayEvent, RelaySource } from '../relay/types.js'
import type { RelayOptions } from '../relay/server.js'
import type { LookAheadSeeds } from '../relay/look-ahead.js'
import type { MirrorPages } from '../relay/page-authority.js'

export interface RelayDecision {
  enabled: boolean
  context: Omit<ToolContext, 'args'>
  secrets: SecretsContext
}

/**
 * The plan with its first attempt through the relay when it can go through one (src/plan/relay.ts decides), after
 * reading what that needs: the tool's TLS trust and this user's relay port; the run's secret is masked from here on.
 */
export function planRelay(plan: RunPlan, { enabled, context, secrets }: RelayDecision): RunPlan {
  const support = plan.invocation.adapter.relay
  const { noRelay } = plan.invocation.adapter
  if (!support) return plan.networked && noRelay && !plan.offlineWhere ? { ...plan, noRelayReason: noRelay } : plan
  if (!plan.networked) return plan
  let address: { host: string; port: number; secret: string } | undefined
  const tool = { ...context, args: plan.invocation.args }
  const unsupported = support.unsupportedIn?.(tool)
  const decided = withRelay(plan, { enabled, trust: support.trust(tool), readTimeoutMs: support.readTimeoutMs(tool), secrets, certificate: relayCertificate, ...(unsupported && { unsupported }),
    address: avoid => {
      address ??= { ...relayAddress(context.env, avoid), secret: relaySecret() }
      registerSecrets([address.secret])
      return address
    } })
  return decided
}

export interface RunRelayDeps {
  env: NodeJS.ProcessEnv
  secrets: SecretsContext
  /** Lines for the terminal: `important` ones (a resume, a bad copy) always, the others with --verbose. */
  say(line: string, important: boolean): void
  /** Books what each host did during an attempt through the relay (state/run-memory.ts bookEach). */
  book?: (bookings: Booking[]) => void
  /** npm: the packages to fetch ahead of it (src/relay/look-ahead.ts); read only when the relay starts. */
  lookAhead?: () => LookAheadSeeds | undefined
  /** After each attempt through the relay: the tool's cache entries kept under the index's URLs too (RelaySupport.keepCache). */
  keepCache?: (relay: { base: string; index: string; pages: readonly string[] }) => Promise<void>
}

export interface RunRelay {
  /** The plan as it runs: the relay's attempt pointed at the port it really got. */
  plan: RunPlan
  /** The loop's exec and watch for this run: an attempt through the relay is not hedged by the loop, and is booked per host. */
  around(exec: Exec, watch?: (attempt: RunPlan['attempts'][number], number: number) => AttemptWatch | undefined): { exec: Exec; watch: typeof watch }
  /** What each source did, by its id, for --report and the run log. */
  tally(): Promise<Record<string, HostTally>>
  /** Running totals for the attempt's progress watch; absent when the relay could not start. */
  served?: () => { bytes: number; requests: number }
  /** npm's packuments fetched ahead and those npm took, when the relay fetched ahead. */
  lookedAhead?: () => { fetched: number; used: number; usedBytes: number } | undefined
  /** The pages the tool got from mirrors because the index failed, when any did. */
  mirrorPages?: () => MirrorPages | undefined
  /** The tool has started: the relay's code loads now, while the tool starts up (its requests wait meanwhile). */
  toolStarted(): void
  close(): Promise<void>
}

const minus = (after: HostTally, before: HostTally | undefined): { served: number; failures: Partial<Record<string, number>> } => ({
  served: after.served - (before?.served ?? 0),
  failures: Object.fromEntries(Object.entries(after.failures).map(([kind, count]) => [kind, count! - (before?.failures[kind as keyof HostTally['failures']] ?? 0)])),
})

/** The plan's sources as the relay gets them: credentials of an index URL go in a header, held in memory only. */
function relaySources(planned: NonNullable<RunPlan['relay']>): RelaySource[] {
  const sources = planned.sources.map(source => {
    const split = splitCredentials(source.indexUrl)
    const authorization = split && `Basic ${Buffer.from(`${split.username}:${split.password}`).toString('base64')}`
    return { id: source.id, pages: split?.url ?? source.indexUrl, files: source.files, ...(authorization && { authorization }) }
  })
  checkSources(sources)
  return sources
}

/**
 * Starts the run's relay when the plan has one: the one step the run assembly takes for it. Undefined when the plan
 * has none; when the relay cannot start (the CA bundle unreadable, no port), the plan's attempt goes to the index
 * directly, as without a relay.
 *
 * Only its socket is bound here, so that the tool starts at once with its address: the relay's code is loaded when
 * the tool has started (`toolStarted`), while it starts up, and the requests that come before are held until then
 * (src/relay/listen.ts).
 */
export async function startRelayForRun(plan: RunPlan, deps: RunRelayDeps): Promise<RunRelay | undefined> {
  const planned = plan.relay
  if (!planned) return undefined
  let bound: BoundRelay
  let options: Omit<RelayOptions, 'lookAhead'>
  try {
    const ca = (planned.ca || planned.caDirs) && [...planned.ca ? [readFileSync(planned.ca, 'utf8')] : [], ...planned.caDirs?.length ? (await import('../relay/certificate-folders.js')).certificatesIn(planned.caDirs) : []].join('\n')
    options = {
      protocol: planned.protocol, secret: planned.secret, env: deps.env, ...(ca && { ca }), sources: relaySources(planned),
      index: planned.sources.find(source => sameIndex(source.indexUrl, planned.index))?.id, ...(planned.tarballs && { tarballs: planned.tarballs }),
      pages: { failover: planned.pages.failover, silentMs: planned.pages.silentMs },
      onEvent: (event: RelayEvent) => {
        const line = describeEvent(event)
        if (line) deps.say(line, event.kind !== 'failover')
      },
    }
    bound = await bindRelay({ host: planned.host, port: planned.port || undefined, tls: planned.certificate })
  } catch (error) {
    deps.say(`resilient's relay could not start (${(error as Error).message}): going to the index directly`, true)
    return { plan: { ...plan, relay: undefined, attempts: [planned.replaced, ...plan.attempts.slice(1)] }, around: (exec, watch) => ({ exec, watch }), tally: async () => ({}), close: async () => {}, toolStarted: () => {} }
  }
  const running = bound.port === planned.port && bound.host === planned.host ? plan
    : { ...plan, relay: { ...planned, host: bound.host, port: bound.port }, attempts: [relayAttempt(plan, planned, bound.base, deps.secrets), ...plan.attempts.slice(1)] }
  const keys = new Map(planned.sources.map(source => [source.id, source.key]))
  const code = deferRelay(bound, async () => (await import('../relay/server.js')).serveRelay(bound, { ...options, lookAhead: deps.lookAhead?.() }), deps.say)
  return {
    plan: running,
    around: (exec, watch) => ({
      exec: async (command, attempt) => {
        if (attempt.planned.via !== 'relay') return exec(command, attempt)
        const before = code.now().tally()
        const result = await exec(command, attempt)
        const relay = await code.loaded()
        await deps.keepCache?.({ base: bound.base, index: planned.index, pages: relay.indexPages() })
        const relayed = Object.fromEntries(Object.entries(relay.tally()).map(([id, tally]) => [id, minus(tally, before[id])]))
        deps.book?.(relayBookings(Object.entries(relayed).map(([id, answers]) => ({ key: keys.get(id) ?? id, host: id, ...answers }))))
        // The diagnosis reads them too: a source that answered only 5xx failed, whatever the tool made of it.
        return { ...result, relayed }
      },
      // The relay hedges each request itself: the loop's hedge on the attempt's index would see the relay's loopback.
      watch: watch && ((attempt, number) => attempt.via === 'relay' ? undefined : watch(attempt, number)),
    }),
    toolStarted: code.load,
    tally: async () => (await code.loaded()).tally(),
    served: () => code.now().served(),
    lookedAhead: () => code.now().lookedAhead(),
    mirrorPages: () => code.now().mirrorPages(),
    close: async () => (await code.loaded()).close(),
  }
}
