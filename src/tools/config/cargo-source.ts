import { cargoConfigLayers, cargoSetting } from './cargo-config.js'
import type { ToolContext } from '../types.js'

/** Where cargo takes crates-io's crates from, and the setting that says so. */
export interface CratesIoSource {
  /** The registry's index URL without `sparse+`; `none` for a vendored or local source; `cargo-source://<name>` when unknown. */
  url: string
  origin: string
  /** Why resilient cannot tell what the source is (a cycle, a name defined nowhere): it is then the person's own. */
  privateBecause?: string
}

type Setting = (path: readonly string[]) => ReturnType<typeof cargoSetting>

const withoutProtocol = (url: string) => url.replace(/^(sparse|registry)\+/, '')

/** What a source name stands for, as cargo resolves a `replace-with` name: a `[source.<name>]`, else a `[registries.<name>]`. */
function definition(setting: Setting, name: string): Omit<CratesIoSource, 'origin'> {
  const registry = setting(['source', name, 'registry'])?.value
  if (typeof registry === 'string') return { url: withoutProtocol(registry) }
  const local = setting(['source', name, 'directory']) ?? setting(['source', name, 'local-registry'])
  if (local) return { url: 'none' }
  // `replace-with` may name an alternative registry (cargo book, "Source Replacement"), whose index may come from
  // CARGO_REGISTRIES_<NAME>_INDEX; cargo 1.95 follows both, seen here.
  const index = setting(['registries', name, 'index'])?.value
  if (typeof index === 'string') return { url: withoutProtocol(index) }
  return { url: `cargo-source://${name}`, privateBecause: `cargo's source "${name}" is not defined where resilient can read it` }
}

/**
 * crates-io as cargo resolves it, or null where it is crates.io itself: `source.crates-io.replace-with`, followed
 * through each source's own `replace-with` as cargo does, or `source.crates-io.registry` (which cargo 1.95 takes as
 * crates-io's own index, seen here). Every key is read as cargo merges it: `--config`, the environment where cargo
 * reads one, the config files and the files they `include` (src/tools/config/cargo-config.ts). A name resilient
 * cannot resolve is private.
 */
export function cratesIoSource(context: ToolContext): CratesIoSource | null {
  // The config files (and what they include) read and parsed once for every key this follows.
  const layers = cargoConfigLayers(context)
  const setting: Setting = path => cargoSetting(context, path, layers)
  const first = setting(['source', 'crates-io', 'replace-with'])
  if (first === undefined) {
    const own = setting(['source', 'crates-io', 'registry'])
    return typeof own?.value === 'string' ? { url: withoutProtocol(own.value), origin: `source.crates-io.registry in ${own.origin}` } : null
  }
  const origin = `source.crates-io.replace-with = "${String(first.value)}" in ${first.origin}`
  const seen = new Set(['crates-io'])
  let name = String(first.value)
  for (;;) {
    if (seen.has(name)) return { url: `cargo-source://${name}`, origin, privateBecause: `cargo's source replacement of crates-io runs in a cycle through "${name}"` }
    seen.add(name)
    const next = setting(['source', name, 'replace-with'])?.value
    if (typeof next !== 'string') return { ...definition(setting, name), origin }
    name = next
  }
}
