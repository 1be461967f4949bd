import type { Ecosystem } from '../mirrors/types.js'

/**
 * Whether an index's answer for a package page lists the package (and the version, when one is asked for): what
 * tells a transient failure from a missing package when the tool said "not found" and the index, asked again by
 * resilient, answered 200. `undefined`: the answer cannot tell (a format not read here, a version range).
 */
export type Listing = (body: string, name: string, version?: string) => boolean | undefined

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** PEP 503: one anchor per file, named `<name>-<version>-<tags>.whl` or `<name>-<version>.tar.gz`; the name in any case and separators. */
const pep503: Listing = (body, name, version) => {
  const files = [...body.matchAll(/<a\b[^>]*>([^<]+)<\/a>/gi)].map(match => match[1]!.trim())
  const named = name.split(/[-_.]+/).map(escape).join('[-_.]+')
  const file = new RegExp(`^${named}-${version ? `${escape(version)}(?:-[^/]*\\.whl|\\.tar\\.gz|\\.zip)$` : ''}`, 'i')
  return files.some(candidate => file.test(candidate))
}

/** An npm packument: its `versions`; only an exact version can be looked up (a range needs npm's own resolver). */
const packument: Listing = (body, _name, version) => {
  if (version && !/^\d+\.\d+\.\d+(?:[-+][\w.-]+)?$/.test(version)) return undefined
  try {
    const versions = (JSON.parse(body) as { versions?: Record<string, unknown> }).versions ?? {}
    return version ? version in versions : Object.keys(versions).length > 0
  } catch {
    return undefined
  }
}

const LISTINGS: Partial<Record<Ecosystem, Listing>> = { pypi: pep503, npm: packument }

export function listsPackage(ecosystem: Ecosystem, body: string, name: string, version?: string): boolean | undefined {
  return LISTINGS[ecosystem]?.(body, name, version)
}
