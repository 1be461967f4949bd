import type { Diagnosis } from '../diagnose/types.js'
import type { Host } from './types.js'
import { hostAndPortOf, nameOfHostLabel } from '../url.js'

/**
 * The contacted host a failure is about: the one the diagnosis names (by `host:port` from its URL where it has one,
 * by name otherwise), or the only one contacted when it names none. Undefined when it names a host the attempt did
 * not contact (a proxy, a CDN, a registry pinned elsewhere) or when several fit: then nothing is booked.
 */
export function blamedHost(diagnosis: Diagnosis, hosts: readonly Host[]): Host | undefined {
  const { facts } = diagnosis
  if (facts.viaProxy || facts.hostRole === 'proxy') return undefined
  const keyed = (found: readonly Host[]) => new Set(found.map(host => host.key)).size === 1 ? found[0] : undefined
  const fromUrl = facts.url ? hostAndPortOf(facts.url) : undefined
  const urlFits = fromUrl && (!facts.host || nameOfHostLabel(fromUrl) === nameOfHostLabel(facts.host))
  const exact = facts.host?.includes(':') ? facts.host.toLowerCase() : urlFits ? fromUrl : undefined
  if (exact) {
    const found = hosts.filter(host => host.host.toLowerCase() === exact)
    if (found.length) return keyed(found)
  }
  if (facts.host) return keyed(hosts.filter(host => nameOfHostLabel(host.host) === nameOfHostLabel(facts.host!)))
  return keyed(hosts)
}
