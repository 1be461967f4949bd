import type { Ecosystem } from './types.js'

/** One small real request that every healthy mirror of an ecosystem answers. */
export interface ProbeRequest {
  url: string
  headers: Record<string, string>
}

const trim = (url: string) => url.replace(/\/+$/, '')

// Each asks for something every mirror carries and that is small: a probe measures the mirror, not the payload.
const PROBES = {
  // PEP 503 project page of pip itself.
  pypi: index => ({ url: `${trim(index)}/pip/`, headers: { accept: 'text/html' } }),
  // The abbreviated packument (npm's install format) of a tiny package.
  npm: registry => ({ url: `${trim(registry)}/is-number`, headers: { accept: 'application/vnd.npm.install-v1+json' } }),
  // A sparse index file (https://doc.rust-lang.org/cargo/reference/registry-index.html#index-files).
  crates: index => ({ url: `${trim(index.replace(/^sparse\+/, ''))}/cf/g-/cfg-if`, headers: {} }),
  // A module's version list (https://go.dev/ref/mod#goproxy-protocol).
  go: proxy => ({ url: `${trim(proxy)}/github.com/pkg/errors/@v/list`, headers: {} }),
  // repodata is large: the first KiB proves the channel is served.
  conda: alias => ({ url: `${trim(alias)}/conda-forge/noarch/repodata.json`, headers: { range: 'bytes=0-1023' } }),
} satisfies Record<Ecosystem, (url: string) => ProbeRequest>

/** What each probe asks for, for `--help` and the docs. */
export const PROBE_DESCRIPTIONS = {
  pypi: 'the PEP 503 page of pip',
  npm: 'the packument of is-number',
  crates: 'the sparse index file of cfg-if',
  go: 'the version list of github.com/pkg/errors',
  conda: 'the first KiB of conda-forge/noarch/repodata.json',
} satisfies Record<Ecosystem, string>

export function probeRequest(ecosystem: Ecosystem, indexUrl: string): ProbeRequest {
  return PROBES[ecosystem](indexUrl)
}
