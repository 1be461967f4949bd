import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import { startRelay, type Relay, type RelayOptions } from '../../src/relay/server.js'
import type { RelayEvent, RelaySource } from '../../src/relay/types.js'
import type { NpmRegistry } from '../support/npm-registry.js'
import { startHttpProxy } from '../support/http-proxy.js'
import { frontOnLocalhost, type LocalhostFront } from '../support/localhost-front.js'
import type { PypiServer } from '../../src/demo/pypi-server.js'

/** Shared by the relay's e2e tests: a relay in front of local fault-injecting servers, closed after each test. */
export const SECRET = 'relay-test-secret'
/**
 * Hedging off, for a case about a resume: on a loaded machine a slow first byte of the index's file has the mirror
 * asked for all of it (the hedge's behaviour), and no resume happens.
 */
export const NO_HEDGE = { initialMs: 60_000, minMs: 60_000, maxMs: 60_000 }
export const AUTHORIZATION = `Basic ${Buffer.from(`resilient:${SECRET}`).toString('base64')}`

/** A PEP 503 server as a relay source: pages at its simple URL, files under its root. */
export const pypiSource = (server: PypiServer, id = `127.0.0.1:${server.port}`): RelaySource => ({ id, pages: `${server.url}/`, files: server.url.replace(/simple$/, '') })
export const npmSource = (registry: NpmRegistry, id = `127.0.0.1:${registry.port}`): RelaySource => ({ id, pages: registry.url, files: registry.url })

export function relays(): (options: Omit<RelayOptions, 'secret'> & { secret?: string }) => Promise<Relay & { events: RelayEvent[] }> {
  const started: Relay[] = []
  afterEach(async () => {
    await Promise.all(started.splice(0).map(relay => relay.close()))
  })
  return async options => {
    const events: RelayEvent[] = []
    const relay = await startRelay({ secret: SECRET, ...options, onEvent: event => events.push(event) })
    started.push(relay)
    return Object.assign(relay, { events })
  }
}

/** pip's way to the relay's secret: a netrc named by NETRC, never the command line. */
export function pipCredentials(secret = SECRET): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'resilient-relay-netrc-'))
  writeFileSync(join(dir, 'netrc'), `machine 127.0.0.1 login resilient password ${secret}\n`, { mode: 0o600 })
  return { NETRC: join(dir, 'netrc') }
}

/** npm's: `_auth` for the relay's address in a user npmrc. */
export function npmCredentials(relay: Relay, home: string): Record<string, string> {
  const path = join(home, '.npmrc-relay')
  writeFileSync(path, `//127.0.0.1:${relay.port}/:_auth=${Buffer.from(`resilient:${SECRET}`).toString('base64')}\n`, { mode: 0o600 })
  return { npm_config_userconfig: path }
}

/**
 * An HTTP proxy that records what goes through it (test/support/http-proxy.ts); `connectPorts`: the only ports it
 * tunnels to (Squid's default allows CONNECT to 443 alone). Closed by the test.
 */
export const proxy = startHttpProxy

/**
 * `registry` at http://localhost:<port>/, its packuments' tarball links too: another host name than the index's
 * 127.0.0.1, as a private registry has (test/support/localhost-front.ts). Closed after each test.
 */
export function localhostFronts(): (registry: NpmRegistry) => Promise<string> {
  const fronts: LocalhostFront[] = []
  afterEach(async () => {
    await Promise.all(fronts.splice(0).map(front => front.close()))
  })
  return async registry => {
    const front = await frontOnLocalhost(registry)
    fronts.push(front)
    return front.url
  }
}
