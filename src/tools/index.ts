import { pip } from './pip.js'
import type { ToolAdapter } from './types.js'

/** Every package manager resilient understands. Add one line per adapter; nothing else branches on a tool name. */
export const TOOLS = { pip } satisfies Record<string, ToolAdapter>

export type ToolName = keyof typeof TOOLS
export type { ToolAdapter, CommandLine, IndexChoice, ToolContext } from './types.js'
