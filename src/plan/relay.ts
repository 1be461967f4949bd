import { UPSTREAM_FILE_HOSTS, UPSTREAMS } from '../mirrors/index.js'
import { PROTOCOL_ADDRESSES } from '../relay/protocol-addresses.js'
import type { RelayCertificate } from '../relay/certificate.js'
import type { SecretsContext } from '../tools/source/credentials.js'
import type { RelayTrust } from '../tools/relay/relay-support.js'
import { hostAndPortOf, hostOf, indexKey, indexUrlOf, labelOf, sameIndex } from '../url.js'
import type { PlannedAttempt, RelayPlan, RelayPlanSource, RunPlan, Source } from './types.js'
import type { Failure } from '../diagnose/types.js'

/** What deciding on a relay needs, read beforehand (src/run/relay.ts gathers it). */
export interface RelayRequest {
  /** `relay` in the config (`--no-relay` sets false). */
  enabled: boolean
  /**
   * Where to listen (the same across runs, src/relay/address.ts; `avoid` are the hosts it must not share) and this
   * run's secret, which every request must carry.
   */
  address(avoid: readonly string[]): { host: string; port: number; secret: string }
  /** The tool's TLS trust (ToolAdapter.relay.trust). */
  trust: RelayTrust
  /** Where the relay's secret goes for the tool: the run's private directory. */
  secrets: SecretsContext
  /** The tool's own read timeout (RelaySupport.readTimeoutMs): the relay never waits on a silent index page longer than half of it. */
  readTimeoutMs?: number
  /** A new https certificate for the relay's address (src/relay/certificate.ts), for a protocol served over https. */
  certificate?(hosts: readonly string[]): RelayCertificate
  /** RelaySupport.unsupportedIn for this invocation: what the installed tool or its project keeps from the relay. */
  unsupported?: string
}

/**
 * How long the index may send nothing for a page before a mirror's is taken: 5 s, far beyond an index's usual first
 * byte (PyPI and npm answer within a second from far away) and paid once per run (the index is then down, and its
 * pages are asked together with the mirrors'); never more than half the tool's own read timeout, so that the tool
 * still waits when the mirror's page comes.
 */
export const PAGE_SILENCE_MS = 5000
export function pageSilenceMs(readTimeoutMs: number | undefined): number {
  return Math.round(Math.min(PAGE_SILENCE_MS, (readTimeoutMs ?? Infinity) / 2))
}

const withSlash = (url: string) => url.endsWith('/') ? url : `${url}/`

/** Where a source's file links live: the upstream's own file host where it has one (PyPI's), else as its protocol says. */
function filesRoot(protocol: RelayPlan['protocol'], indexUrl: string): string {
  const upstream = (Object.keys(UPSTREAM_FILE_HOSTS) as (keyof typeof UPSTREAM_FILE_HOSTS)[]).find(ecosystem => sameIndex(indexUrl, UPSTREAMS[ecosystem]))
  const fileHost = upstream && UPSTREAM_FILE_HOSTS[upstream][0]
  return fileHost ? `https://${fileHost}/` : PROTOCOL_ADDRESSES[protocol].filesRoot(indexUrl)
}

function relaySource(protocol: RelayPlan['protocol'], source: Source, indexUrl: string): RelayPlanSource {
  // A catalog mirror by its name (`tuna`); the index the person named (`primary`) and a URL by their host.
  const named = source.kind === 'mirror' && source.id !== 'primary' && !source.id.includes('.') && !source.id.includes(':')
  return { id: named ? source.id : labelOf(indexUrl), key: indexKey(indexUrl), indexUrl, files: filesRoot(protocol, indexUrl) }
}

/** Why this plan cannot go through the relay, or undefined when it can. */
function whyNot(plan: RunPlan, request: RelayRequest, indexes: (string | undefined)[]): string | undefined {
  const support = plan.invocation.adapter.relay
  if (!plan.networked || plan.offlineWhere) return 'not an index command'
  if (!request.enabled) return 'turned off (--no-relay, or "relay": false in the config)'
  if (!support) return plan.invocation.adapter.noRelay ?? `${plan.invocation.adapter.name} does not go through the relay yet`
  const unsupported = support.unsupported?.(plan.invocation.args)
  if (unsupported) return unsupported
  if (request.unsupported) return request.unsupported
  // A source of the person's own beside a public index still goes through the relay, which keeps its pages on the index.
  if (plan.noSwitchReason && plan.noSwitchReason !== plan.privateBeside?.reason) return plan.noSwitchReason
  // Pointing the tool at the relay overrides its own index choice, which is not known for certain here: only asking
  // the tool would tell, and a healthy run does not pay for that. The restart loop asks it at failure time instead.
  if (plan.unconfirmed) return `${plan.unconfirmed}, so the tool keeps its own index choice`
  if (plan.attempts.some(attempt => attempt.source.kind !== 'upstream' && attempt.source.kind !== 'mirror')) return 'the index is not a public one'
  if (indexes.some(url => !url || !/^https?:\/\//i.test(url))) return 'an index is not an http(s) URL'
  const listed = (hosts: readonly string[], url: string) => hosts.includes('*') || hosts.some(host => host === hostOf(url) || host === hostAndPortOf(url))
  const name = plan.invocation.adapter.name
  if (request.trust.carries) return `${name} sends ${request.trust.carries}, which the relay would not carry`
  if (request.trust.keepsAway) return `${name} ${request.trust.keepsAway}`
  if (request.trust.proxy) return `${name} sends every request to its proxy (${request.trust.proxy}), the relay's on loopback included`
  const skipped = indexes.find(url => listed(request.trust.unverified, url!))
  if (skipped) return `${name} does not verify TLS for ${labelOf(skipped)}, which the relay would`
  const index = indexUrlOf(plan.primary) ?? plan.invocation.adapter.defaultIndex
  const sharing = request.trust.otherRegistries?.find(url => hostOf(url) === hostOf(index) && !sameIndex(url, index))
  if (sharing) return `${name} sends every download on ${hostOf(index)} to the relay, and another registry it uses is there too (${labelOf(sharing)})`
  const credentials = request.trust.credentials ?? {}
  const credentialed = indexes.find(url => listed(Object.keys(credentials), url!))
  return credentialed ? `${name} sends credentials to ${labelOf(credentialed)} (${credentials[hostOf(credentialed)!] ?? credentials[hostAndPortOf(credentialed)!] ?? credentials['*']}), which the relay would not carry` : undefined
}

/** The command of the relay's attempt, for a relay listening at `base` (`http://<host>:<port>/`). */
export function relayAttempt(plan: RunPlan, relay: RelayPlan, base: string, secrets: SecretsContext): PlannedAttempt {
  const first = relay.replaced
  const support = plan.invocation.adapter.relay!
  const url = PROTOCOL_ADDRESSES[relay.protocol].indexUrl(base)
  const command = support.apply({ argv: [...plan.invocation.launcher, ...plan.invocation.args], env: {} },
    { url, secret: relay.secret, index: relay.index, ...(relay.noProxy !== undefined && { noProxy: relay.noProxy }), ...(relay.fileHost && { fileHost: relay.fileHost }),
      ...(relay.certificate && { certificate: relay.certificate.cert }) }, secrets)
  return { source: first.source, command, cwd: first.cwd, hosts: [], reason: first.reason, via: 'relay', ...(first.requested && { requested: true }) }
}

/**
 * The plan with its first attempt going through resilient's relay, when it can: every source public (a private
 * index never goes through it, so its installs never fail over elsewhere), the tool able to use it for this
 * invocation, and TLS verified as the tool would. The sources behind the relay are the attempts' own, in the
 * ranked order; later attempts stay as planned (the restart loop, should the relay's attempt fail).
 */
export function withRelay(plan: RunPlan, request: RelayRequest): RunPlan {
  const behind = [...plan.attempts.map(attempt => attempt.source), ...plan.privateBeside?.mirrors ?? []]
  const indexes = behind.map(source => indexUrlOf(source) ?? plan.invocation.adapter.defaultIndex)
  const reason = whyNot(plan, request, indexes)
  if (reason) return plan.networked && (plan.invocation.adapter.relay || plan.invocation.adapter.noRelay) ? { ...plan, noRelayReason: reason } : plan
  const protocol = plan.invocation.adapter.relay!.protocol
  const sources: RelayPlanSource[] = []
  behind.forEach((source, index) => {
    if (!sources.some(known => sameIndex(known.indexUrl, indexes[index]!))) sources.push(relaySource(protocol, source, indexes[index]!))
  })
  const pages = { failover: !plan.privateBeside, silentMs: pageSilenceMs(request.readTimeoutMs), ...(plan.privateBeside && { why: plan.privateBeside.reason }) }
  const { ca, caDirs, noProxy } = request.trust
  // The index the person's settings name (not the ranked first): what lockfiles record, whichever source answers.
  const index = indexUrlOf(plan.primary) ?? plan.invocation.adapter.defaultIndex
  // The relay's host must be no other server's: pip picks netrc entries by host name alone (src/relay/address.ts).
  const address = request.address([...Object.keys(request.trust.credentials ?? {}), ...indexes.flatMap(url => hostOf(url!) ?? [])])
  const foreignPins = Boolean(request.trust.otherRegistries?.length) || plan.attempts[0]!.hosts.some(host => host.role === 'lockfile')
  const fileHost = plan.invocation.adapter.relay!.fileHost?.(index, request.trust, foreignPins)
  // Also for 127.0.0.1: where the planned address is not there, the relay listens on that one (src/relay/server.ts).
  const certificate = PROTOCOL_ADDRESSES[protocol].tls ? request.certificate?.([address.host, '127.0.0.1']) : undefined
  if (PROTOCOL_ADDRESSES[protocol].tls && !certificate) return { ...plan, noRelayReason: 'no certificate for an https relay' }
  const tarballs = plan.invocation.adapter.relay!.tarballs
  const relay: RelayPlan = { protocol, sources, index, host: address.host, port: address.port, secret: address.secret, replaced: plan.attempts[0]!, pages, ...(ca && { ca: ca.path }), ...(caDirs?.length && { caDirs }), ...(noProxy !== undefined && { noProxy }), ...(fileHost && { fileHost }),
    ...(certificate && { certificate }), ...(tarballs && { tarballs }) }
  const first = relayAttempt(plan, relay, `${certificate ? 'https' : 'http'}://${relay.host}:${relay.port}/`, request.secrets)
  return { ...plan, relay, attempts: [first, ...plan.attempts.slice(1)] }
}

/** For the diagnosis of an attempt through the relay: the address the tool met, and each source's host by id (src/diagnose/relay-upstream.ts). */
export function relayBehind(plan: RunPlan, attempt: PlannedAttempt): Failure['relay'] {
  if (attempt.via !== 'relay' || !plan.relay) return undefined
  const address = hostAndPortOf(`http://${plan.relay.host}:${plan.relay.port}/`) ?? `${plan.relay.host}:${plan.relay.port}`
  return { address, hosts: Object.fromEntries(plan.relay.sources.map(source => [source.id, labelOf(source.indexUrl)])) }
}
