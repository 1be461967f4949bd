import { randomBytes, randomInt } from 'node:crypto'
import { readFileSync, statSync, unlinkSync } from 'node:fs'
import { join } from 'node:path'
import { ensurePrivateDir } from '../files/locked-file.js'
import { writeNewFile } from '../files/private-files.js'
import { stateDir } from '../state/paths.js'

/** Where this user's relays listen and what they ask of every request. */
export interface RelayAddress {
  port: number
  secret: string
}

// Below Linux's ephemeral range (32768-60999), where outgoing connections would take the port at random.
const PORTS = { from: 20_000, to: 32_000 }

function valid(value: unknown): value is RelayAddress {
  const { port, secret } = (value ?? {}) as Partial<RelayAddress>
  return Number.isInteger(port) && port! >= 1024 && port! < 65_536 && typeof secret === 'string' && secret.length >= 32
}

/** The file, when it is ours alone (0600, our own): a secret others could read is replaced. */
function read(file: string): RelayAddress | undefined {
  const stat = statSync(file)
  if ((stat.mode & 0o077) !== 0 || stat.uid !== process.getuid?.()) return undefined
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'))
  return valid(parsed) ? parsed : undefined
}

/**
 * This user's relay address, the same for every run: one port chosen at random once, and one secret, in
 * `relay.json` of the state directory (0600 in a 0700 directory). The same address each run keeps the relay's
 * URLs, which pip's HTTP cache and wheel cache key on, the same as well. Where the state directory cannot be used,
 * an address for this run only (any free port: the tools' caches then miss once).
 */
export function relayAddress(env: NodeJS.ProcessEnv): RelayAddress {
  const file = join(stateDir(env), 'relay.json')
  const fresh = (): RelayAddress => ({ port: randomInt(PORTS.from, PORTS.to), secret: randomBytes(32).toString('base64url') })
  try {
    try {
      const found = read(file)
      if (found) return found
      unlinkSync(file)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') unlinkSync(file)
    }
    ensurePrivateDir(stateDir(env))
    const address = fresh()
    try {
      writeNewFile(file, `${JSON.stringify(address)}\n`)
      return address
    } catch {
      // Another run created it first: theirs is the one.
      return read(file) ?? { ...address, port: 0 }
    }
  } catch {
    return { ...fresh(), port: 0 }
  }
}
