import type { NodeManager } from './node-project.js'

// What an auto-install runs, per package manager. It runs no package code: wheels only for pip (an sdist's
// setup.py or build backend would execute at install time), no lifecycle scripts for the Node managers
// (auto-install-safety.md §5.4). The person can still install a package that needs them, by hand.

/** `<python> -m pip install`: the script's own interpreter, never a bare `pip` that may belong to another one. */
export function pipInstall(python: string, project: string): string[] {
  return [python, '-m', 'pip', 'install', '--only-binary=:all:', '--no-input', project]
}

export function pipUninstall(python: string, project: string): string[] {
  return [python, '-m', 'pip', 'uninstall', '--yes', project]
}

const NODE_INSTALL = {
  // --no-save: installed for this run, package.json and the lockfile untouched (npm has the only such switch).
  npm: name => ['npm', 'install', '--no-save', '--ignore-scripts', name],
  pnpm: name => ['pnpm', 'add', '--ignore-scripts', name],
  yarn: name => ['yarn', 'add', '--ignore-scripts', name],
  // Berry has no --ignore-scripts on add; skip-build skips every package's build scripts.
  'yarn-berry': name => ['yarn', 'add', '--mode=skip-build', name],
  // Bun never runs a dependency's lifecycle scripts unless it is listed in trustedDependencies.
  bun: name => ['bun', 'add', name],
} satisfies Record<NodeManager, (name: string) => string[]>

const NODE_UNINSTALL = {
  npm: name => ['npm', 'uninstall', '--no-save', name],
  pnpm: name => ['pnpm', 'remove', name],
  yarn: name => ['yarn', 'remove', name],
  'yarn-berry': name => ['yarn', 'remove', name],
  bun: name => ['bun', 'remove', name],
} satisfies Record<NodeManager, (name: string) => string[]>

export function nodeInstall(manager: NodeManager, name: string): string[] {
  return NODE_INSTALL[manager](name)
}

export function nodeUninstall(manager: NodeManager, name: string): string[] {
  return NODE_UNINSTALL[manager](name)
}

/** Whether the manager writes package.json on install (everything but npm --no-save), for the final message. */
export function savesToManifest(manager: NodeManager): boolean {
  return manager !== 'npm'
}
