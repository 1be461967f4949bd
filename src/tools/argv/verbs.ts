import { firstPositional } from './args.js'

/** What one invocation does to the network (ToolAdapter.classify). */
export type Classification = 'network' | 'local' | 'publish'

/** Where a tool's verb stands on its command line, as data (findVerb). */
export interface VerbSyntax {
  /** Options that take a value and may stand before the verb (`npm --registry X install`). */
  optionsWithValue?: readonly string[]
  /** First words that name a group of commands: the verb is then both words (`env create`, `global install`). */
  groups?: ReadonlySet<string>
}

/** A tool's verbs, as data: the one classify skeleton the adapters share reads it (classifyVerb). */
export interface VerbTable {
  /** Verbs that talk to an index: retried and redirected to mirrors. */
  network: ReadonlySet<string>
  /** Verbs that talk to an index only when an argument matches: pip `list --outdated`, uv `run --with`. */
  networkWhen?: Readonly<Record<string, RegExp>>
  /** Verbs that upload or log in: run once, never redirected (a mirror must never see credentials or uploads). */
  publish?: ReadonlySet<string>
  /** An argument that keeps any other verb local: `--offline` (the cache only), `--help`. */
  local?: RegExp
  /** What the tool does when no verb is given: bare `yarn` is `yarn install` (default local: help or a shell). */
  bare?: Classification
  /** Where the verb stands; for adapters that find it by data rather than by the tool's own parser. */
  syntax?: VerbSyntax
}

/** The verb as the table's syntax finds it: the first positional word, and the next one after a group's name. */
export function findVerb(args: readonly string[], { optionsWithValue = [], groups }: VerbSyntax = {}): string | undefined {
  const first = firstPositional(args, optionsWithValue)
  if (!first || !groups?.has(first.value)) return first?.value
  const second = firstPositional(args.slice(first.index + 1), optionsWithValue)
  return second ? `${first.value} ${second.value}` : first.value
}

/**
 * The verb's class: publish, then local when an argument says so, then what no verb means, then network when the
 * verb is a network one or a conditional one whose argument is there.
 */
export function classifyVerb(verb: string | undefined, args: readonly string[], table: VerbTable): Classification {
  if (verb !== undefined && table.publish?.has(verb)) return 'publish'
  if (table.local && args.some(arg => table.local!.test(arg))) return 'local'
  if (verb === undefined || verb === '') return table.bare ?? 'local'
  const when = table.networkWhen?.[verb]
  if (when && args.some(arg => when.test(arg))) return 'network'
  return table.network.has(verb) ? 'network' : 'local'
}

/** classify for a tool whose verb its table's syntax finds. */
export function classifyArgs(args: readonly string[], table: VerbTable): Classification {
  return classifyVerb(findVerb(args, table.syntax), args, table)
}
