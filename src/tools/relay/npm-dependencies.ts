/** What npm's manifests depend on, as the relay's look-ahead (src/relay/look-ahead.ts) reads them. */

/** Where the look-ahead starts from, for one command. */
export interface LookAheadSeeds {
  /** Packages the project asks for (its manifest, the command line), fetched once the tool shows a cold cache. */
  seeds: readonly string[]
  /** Packages the tool will not ask a registry for (its lockfile has them, or the project provides them): never fetched ahead. */
  locked: readonly string[]
}

import { isPackageName } from '../../npm-names.js'

export { isPackageName }

export type Manifest = { dependencies?: unknown; optionalDependencies?: unknown; peerDependencies?: unknown; peerDependenciesMeta?: unknown }

/**
 * The registry package a dependency spec asks for: itself for a range or a tag, the aliased package for
 * `npm:other@range`; undefined for git, file, link, URL, workspace and GitHub specs, which never reach a registry.
 */
export function registryPackage(name: string, spec: unknown): string | undefined {
  if (typeof spec !== 'string') return undefined
  const alias = /^npm:((?:@[^/@]+\/)?[^/@]+)(?:@.*)?$/.exec(spec)
  const chosen = alias ? alias[1]! : /^[^:/\\]*$/.test(spec) ? name : undefined
  return chosen && isPackageName(chosen) ? chosen : undefined
}

/** The registry packages a manifest depends on: dependencies, optional ones, and the peers npm installs (not optional). */
export function dependenciesOf(manifest: Manifest, withDev?: unknown): string[] {
  const names: string[] = []
  const meta = (manifest.peerDependenciesMeta ?? {}) as Record<string, { optional?: boolean } | undefined>
  const add = (deps: unknown, skip?: (name: string) => boolean) => {
    if (!deps || typeof deps !== 'object') return
    for (const [name, spec] of Object.entries(deps)) {
      const chosen = skip?.(name) ? undefined : registryPackage(name, spec)
      if (chosen) names.push(chosen)
    }
  }
  add(manifest.dependencies)
  add(manifest.optionalDependencies)
  add(withDev)
  add(manifest.peerDependencies, name => meta[name]?.optional === true)
  return names
}

