/** What one invocation does to the network (ToolAdapter.classify). */
export type Classification = 'network' | 'local' | 'publish'

/** A tool's verbs, as data: the one classify skeleton the adapters share reads it (classifyVerb). */
export interface VerbTable {
  /** Verbs that talk to an index: retried and redirected to mirrors. */
  network: ReadonlySet<string>
  /** Verbs that upload or log in: run once, never redirected (a mirror must never see credentials or uploads). */
  publish?: ReadonlySet<string>
  /** An argument that keeps any other verb local: `--offline` (the cache only), `--help`. */
  local?: RegExp
}

/** The verb's class: publish, then local when an argument says so, then network when the verb is a network one. */
export function classifyVerb(verb: string | undefined, args: readonly string[], table: VerbTable): Classification {
  if (verb === undefined) return 'local'
  if (table.publish?.has(verb)) return 'publish'
  if (table.local && args.some(arg => table.local!.test(arg))) return 'local'
  return table.network.has(verb) ? 'network' : 'local'
}
