import { conda, CONDA_UPSTREAM } from './conda.js'
import { crates, CRATES_UPSTREAM } from './crates.js'
import { go, GO_UPSTREAM } from './go.js'
import { npm, NPM_UPSTREAM } from './npm.js'
import { pypi, PYPI_UPSTREAM } from './pypi.js'
import type { Ecosystem, Mirror } from './types.js'

export const MIRRORS = { pypi, conda, npm, crates, go } satisfies Record<Ecosystem, readonly Mirror[]>

/** The public upstream index of each ecosystem: the only index resilient ever replaces with a mirror. */
export const UPSTREAMS = {
  pypi: PYPI_UPSTREAM,
  conda: CONDA_UPSTREAM,
  npm: NPM_UPSTREAM,
  crates: CRATES_UPSTREAM,
  go: GO_UPSTREAM,
} satisfies Record<Ecosystem, string>

/**
 * Where each upstream sends downloads: an attempt on the upstream contacts these too, and their outcomes are booked
 * under the upstream (PyPI serves files from files.pythonhosted.org, crates.io from static.crates.io).
 */
export const UPSTREAM_FILE_HOSTS = {
  pypi: ['files.pythonhosted.org'],
  conda: [],
  npm: [],
  crates: ['static.crates.io'],
  go: [],
} satisfies Record<Ecosystem, readonly string[]>

export const ECOSYSTEMS = Object.keys(MIRRORS) as Ecosystem[]
export type { Ecosystem, Mirror } from './types.js'
