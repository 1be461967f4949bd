import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { upwards } from '../files/upwards.js'

// Files that mark the top of a project: where its requirements are declared and its own modules live.
const MARKERS = ['pyproject.toml', 'setup.py', 'setup.cfg', 'requirements.txt', 'package.json', '.git']

/** The nearest directory at or above `start` holding a project marker; `start` itself when there is none. */
export function findProjectRoot(start: string, home?: string): string {
  for (const dir of upwards(start)) {
    if (MARKERS.some(marker => existsSync(join(dir, marker)))) return dir
    if (dir === home) break
  }
  return start
}

/** The directories from `start` up to `root` (both included): where a project's own module may shadow a name. */
export function directoriesUpTo(start: string, root: string): string[] {
  const dirs: string[] = []
  for (const dir of upwards(start)) {
    dirs.push(dir)
    if (dir === root) return dirs
  }
  return [start]
}
