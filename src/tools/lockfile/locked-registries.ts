import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

// Finding and reading a project's files (a lockfile, a workspace file) from the current folder upwards.

/** The nearest of `names` in `cwd` or a parent directory (a workspace's lockfile lives at its root). */
export function findUp(cwd: string, names: readonly string[]): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    for (const name of names) if (existsSync(join(dir, name))) return join(dir, name)
    if (dirname(dir) === dir) return undefined
  }
}

/** Reads a lockfile, or undefined when there is none (or it cannot be read: nothing to say then). */
export function readLockfile(cwd: string, names: readonly string[]): { file: string; text: string } | undefined {
  const file = findUp(cwd, names)
  if (!file) return undefined
  try {
    return { file, text: readFileSync(file, 'utf8') }
  } catch {
    return undefined
  }
}
