import { readFileSync, statSync } from 'node:fs'

/**
 * The text of a file the command names, read only when it is a regular file. A named pipe, `/dev/stdin` or
 * `/dev/fd/N` (`-r <(poetry export)`) can be read once, and those bytes belong to the tool: resilient never opens them.
 */
export function readRegularFile(path: string): string | undefined {
  try {
    return statSync(path).isFile() ? readFileSync(path, 'utf8') : undefined
  } catch {
    return undefined
  }
}
