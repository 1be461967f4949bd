import { bun } from './bun.js'
import { cargo } from './cargo.js'
import { conda } from './conda.js'
import { go } from './go.js'
import { mamba } from './mamba.js'
import { micromamba } from './micromamba.js'
import { npm } from './npm.js'
import { pdm } from './pdm.js'
import { pip } from './pip.js'
import { pipx } from './pipx.js'
import { pixi } from './pixi.js'
import { pnpm } from './pnpm.js'
import { poetry } from './poetry.js'
import { uv } from './uv.js'
import { yarnBerry } from './yarn-berry.js'
import { yarn } from './yarn.js'
import type { ToolAdapter } from './types.js'

/** Every package manager resilient understands. Add one line per adapter; nothing else branches on a tool name. */
export const TOOLS = { pip, npm, pnpm, yarn, 'yarn-berry': yarnBerry, bun, cargo, go, uv, conda, mamba, micromamba, pixi, poetry, pipx, pdm } satisfies Record<string, ToolAdapter>

export type ToolName = keyof typeof TOOLS
export type { ToolAdapter, CommandLine, IndexChoice, ToolContext } from './types.js'
