import type { RelaySource } from './types.js'

/**
 * What a relay refuses to front, checked before its socket is bound (a run then sends the attempt to the index
 * directly): no source at all, or a source with credentials beside others, whose requests must never fail over.
 */
export function checkSources(sources: readonly RelaySource[]): void {
  if (!sources.length) throw new Error('a relay needs at least one source')
  if (sources.length > 1 && sources.some(source => source.authorization)) throw new Error('a source with credentials is relayed alone: it never fails over')
}
