import { BUN } from './bun.js'
import { CARGO } from './cargo.js'
import { CONDA, MAMBA, PIXI } from './conda.js'
import { GO } from './go.js'
import { NPM } from './npm.js'
import { PIP } from './pip.js'
import { NATIVE_TLS_SCHANNEL, RUST_STREAM_ENDS, RUSTLS_TLS } from './rust-tls.js'
import { PNPM } from './pnpm.js'
import { POETRY } from './poetry.js'
import type { Message } from './types.js'
import { UV } from './uv.js'
import { YARN } from './yarn.js'
import { YARN_BERRY } from './yarn-berry.js'
import { PDM } from './pdm.js'
import { SYSTEM } from './system.js'

/**
 * The messages each tool forms for the failures resilient diagnoses, from the tool's own source: the data behind the
 * generated tests (test/unit/diagnose/catalog.test.ts), `npm run bench`'s second measure and docs/diagnosis.md.
 * Keys are the tool whose output carries the message (`system`: apt, dpkg and Node, under any tool).
 */
export const CATALOG = {
  pip: PIP, uv: [...UV, ...RUSTLS_TLS], poetry: POETRY, pdm: PDM, conda: CONDA, mamba: MAMBA, pixi: [...PIXI, ...NATIVE_TLS_SCHANNEL, ...RUST_STREAM_ENDS], npm: NPM, pnpm: PNPM, yarn: YARN, 'yarn-berry': YARN_BERRY, bun: BUN, cargo: CARGO, go: GO, system: SYSTEM,
} satisfies Record<string, readonly Message[]>

export type CatalogTool = keyof typeof CATALOG
export type { Message, MessageSource } from './types.js'
