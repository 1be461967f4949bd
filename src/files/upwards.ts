import { dirname, parse, resolve } from 'node:path'

// Tools look for their files from the working folder up (package.json, .npmrc, .yarnrc, pyproject.toml, .git):
// one walk for every reader that does the same, so none stops one folder short of the root or loops at it.

/** `start` (made absolute) and each folder above it, up to and including the filesystem root. */
export function* upwards(start: string): Generator<string> {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    yield dir
    if (dir === parse(dir).root) return
  }
}
