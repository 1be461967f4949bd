import type { NodeManager } from './node-project.js'

// What an auto-install runs, per package manager: one command for every package of the run. It runs no package
// code: wheels only for pip (an sdist's setup.py or build backend would execute at install time), no lifecycle
// scripts for the Node managers (a package's postinstall is arbitrary code: `--ignore-scripts`). The person can still install a package that needs
// them, by hand. Names come after `--` where the manager accepts it, so that none can be read as an option
// (npm, pnpm and bun checked; names are validated before anyway: node-specifier.ts, choose-python.ts).

/** `<python> -m pip install`: the script's own interpreter, never a bare `pip` that may belong to another one. */
export function pipInstall(python: string, requirements: string[]): string[] {
  return [python, '-m', 'pip', 'install', '--only-binary=:all:', '--no-input', ...requirements]
}

const NODE_INSTALL = {
  // --no-save: installed for this run, package.json and the lockfile untouched (npm has the only such switch).
  // npm prunes every package package.json does not declare on each install; the caller adds the ones to keep.
  npm: names => ['npm', 'install', '--no-save', '--ignore-scripts', '--', ...names],
  pnpm: names => ['pnpm', 'add', '--ignore-scripts', '--', ...names],
  yarn: names => ['yarn', 'add', '--ignore-scripts', ...names],
  // Berry has no --ignore-scripts on add; skip-build skips every package's build scripts.
  'yarn-berry': names => ['yarn', 'add', '--mode=skip-build', ...names],
  // Bun never runs a dependency's lifecycle scripts unless it is listed in trustedDependencies.
  bun: names => ['bun', 'add', '--', ...names],
} satisfies Record<NodeManager, (names: string[]) => string[]>

const NODE_REMOVE = {
  // npm is never asked to uninstall: `npm uninstall --no-save` prunes every undeclared package with it, so what
  // this run added is removed from node_modules by the caller instead (node-modules.ts).
  npm: undefined,
  pnpm: names => ['pnpm', 'remove', ...names],
  yarn: names => ['yarn', 'remove', ...names],
  'yarn-berry': names => ['yarn', 'remove', ...names],
  bun: names => ['bun', 'remove', ...names],
} satisfies Record<NodeManager, ((names: string[]) => string[]) | undefined>

export function nodeInstall(manager: NodeManager, names: string[]): string[] {
  return NODE_INSTALL[manager](names)
}

/** The manager's own removal command, or undefined when resilient removes the files itself (npm). */
export function nodeRemove(manager: NodeManager, names: string[]): string[] | undefined {
  return NODE_REMOVE[manager]?.(names)
}
