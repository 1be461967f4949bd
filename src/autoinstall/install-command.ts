import { TOOLS } from '../tools/index.js'
import type { ToolAdapter } from '../tools/types.js'
import type { NodeManager } from './node-project.js'

// What an auto-install runs: one command for every package of the run. It runs no package code (wheels only for pip,
// no lifecycle scripts for the Node managers): the adapters declare the commands (ToolAdapter.scriptInstall). The
// person can still install a package that needs them, by hand. Names are validated before anyway: node-specifier.ts, choose-python.ts.

/** `<python> -m pip install`: the script's own interpreter, never a bare `pip` that may belong to another one. */
export function pipInstall(python: string, requirements: string[]): string[] {
  return [python, '-m', ...TOOLS.pip.scriptInstall.add(requirements)]
}

/** The manager's install command (ToolAdapter.scriptInstall): package code never runs. */
export function nodeInstall(manager: NodeManager, names: string[]): string[] {
  return TOOLS[manager].scriptInstall.add(names)
}

/** The manager's own removal command, or undefined when resilient removes the files itself (npm). */
export function nodeRemove(manager: NodeManager, names: string[]): string[] | undefined {
  const install: NonNullable<ToolAdapter['scriptInstall']> = TOOLS[manager].scriptInstall
  return install.remove?.(names)
}

/** Every install prunes the packages package.json does not declare (npm): they must be named again. */
export function prunesUndeclared(manager: NodeManager): boolean {
  const install: NonNullable<ToolAdapter['scriptInstall']> = TOOLS[manager].scriptInstall
  return install.prunesUndeclared === true
}
