import { createHash, randomBytes } from 'node:crypto'
import { userInfo } from 'node:os'

/** Where a relay listens: a loopback address and a port. */
export interface RelayAddress {
  host: string
  port: number
}

// Below Linux's ephemeral range (32768-60999), where outgoing connections would take the port at random.
const PORTS = { from: 20_000, to: 32_000 }

function userName(env: NodeJS.ProcessEnv): string {
  try {
    return userInfo().username
  } catch {
    return env.USER ?? env.LOGNAME ?? String(process.getuid?.() ?? '')
  }
}

/**
 * This user's relay address, the same for every run on every machine (a CI job restoring only pip's or npm's cache
 * included): both are derived from the user name and home folder, never kept in a file. The tools' caches key on
 * the relay's URLs (pip's HTTP and wheel caches), so they keep working from one run to the next; two homes of one
 * user (containers, CI jobs side by side) get two addresses and do not compete for one port.
 *
 * On Linux the host is a loopback address of its own (127.0.0.0/8 is all loopback there), not 127.0.0.1: pip picks
 * netrc entries by host name alone, port ignored, so on 127.0.0.1 the relay's secret would go to any other local
 * server the tool uses (a devpi on 127.0.0.1:3141), and the person's own netrc entry for 127.0.0.1 to the relay.
 * `avoid` are the hosts taken already (the person's netrc machines, the tool's other sources): another address is
 * derived when one of them is the one. Elsewhere (macOS has 127.0.0.1 alone), 127.0.0.1.
 */
export function relayAddress(env: NodeJS.ProcessEnv, avoid: readonly string[] = [], platform: NodeJS.Platform = process.platform): RelayAddress {
  const taken = new Set(avoid.map(host => host.toLowerCase()))
  for (let round = 0; ; round++) {
    const hash = createHash('sha256').update(`resilient relay ${userName(env)} ${env.HOME ?? ''} ${round}`).digest()
    const port = PORTS.from + (hash.readUInt32BE(0) % (PORTS.to - PORTS.from))
    // 127.1.0.1-127.254.254.254: never 127.0.x.x, where Debian puts the machine's own name (127.0.1.1).
    const host = platform === 'linux' ? `127.${1 + (hash[4]! % 254)}.${hash[5]! % 255}.${1 + (hash[6]! % 254)}` : '127.0.0.1'
    if (!taken.has(host) || platform !== 'linux' || round > 16) return { host, port }
  }
}

/**
 * A new secret for one run's relay: nothing keys on it (the tools send it as credentials, never in a URL), so it is
 * never kept anywhere but in this run's memory and the 0600 file the tool reads it from.
 */
export function relaySecret(): string {
  return randomBytes(32).toString('base64url')
}
