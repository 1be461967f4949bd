import { randomBytes, randomInt } from 'node:crypto'
import { readFileSync, statSync, unlinkSync } from 'node:fs'
import { join } from 'node:path'
import { ensurePrivateDir } from '../files/locked-file.js'
import { writeNewFile } from '../files/private-files.js'
import { stateDir } from '../paths.js'

// Below Linux's ephemeral range (32768-60999), where outgoing connections would take the port at random.
const PORTS = { from: 20_000, to: 32_000 }

/** The port in the file, when the file is ours (our own, 0600) and holds one. */
function read(file: string): number | undefined {
  const stat = statSync(file)
  if ((stat.mode & 0o077) !== 0 || stat.uid !== process.getuid?.()) return undefined
  const { port } = JSON.parse(readFileSync(file, 'utf8')) as { port?: unknown }
  return Number.isInteger(port) && (port as number) >= 1024 && (port as number) < 65_536 ? port as number : undefined
}

/**
 * This user's relay port, the same for every run: chosen at random once and kept in `relay.json` of the state
 * directory. The same port each run keeps the relay's URLs, which pip's HTTP cache and wheel cache key on, the same
 * too. Where the state directory cannot be used, 0: any free port for this run (the tools' caches then miss once).
 */
export function relayPort(env: NodeJS.ProcessEnv): number {
  const file = join(stateDir(env), 'relay.json')
  try {
    try {
      const found = read(file)
      if (found) return found
      unlinkSync(file)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') unlinkSync(file)
    }
    ensurePrivateDir(stateDir(env))
    const port = randomInt(PORTS.from, PORTS.to)
    try {
      writeNewFile(file, `${JSON.stringify({ port })}\n`)
      return port
    } catch {
      // Another run created it first: theirs is the one.
      return read(file) ?? 0
    }
  } catch {
    return 0
  }
}

/**
 * A new secret for one run's relay: nothing keys on it (the tools send it as credentials, never in a URL), so it is
 * never kept anywhere but in this run's memory and the 0600 file the tool reads it from.
 */
export function relaySecret(): string {
  return randomBytes(32).toString('base64url')
}
