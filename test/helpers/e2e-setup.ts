import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import { startPypiServer, type PypiServer, type PypiServerOptions } from '../../src/demo/pypi-server.js'

/**
 * A temporary project directory with a `.resilientrc.json`, the way a person configures resilient. Without a
 * `relay` key the relay is off: these tests are about the restart loop, which runs wherever no relay can serve
 * (the relay's own tests say `relay: true`).
 */
export function projectWithConfig(config: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'resilient-project-'))
  writeFileSync(join(dir, '.resilientrc.json'), JSON.stringify(relayOffUnlessSaid(config), null, 2))
  return dir
}

/** A test config with `relay: false` added when it does not say (see projectWithConfig). */
export function relayOffUnlessSaid(config: unknown): unknown {
  return config && typeof config === 'object' && !Array.isArray(config) && !('relay' in config) ? { relay: false, ...config } : config
}

export function filesIn(dir: string): string[] {
  try {
    return readdirSync(dir).sort()
  } catch {
    return []
  }
}

/**
 * Starts PEP 503 servers for the tests of one file and closes them after each test, black-holed connections
 * included: `const server = pypiServers()`, then `await server({ wheels, fault })`.
 */
export function pypiServers(defaults: Partial<PypiServerOptions> = {}): (options?: Partial<PypiServerOptions>) => Promise<PypiServer> {
  const servers: PypiServer[] = []
  afterEach(async () => {
    await Promise.all(servers.splice(0).map(server => server.close()))
  })
  return async (options = {}) => {
    const started = await startPypiServer({ wheels: [], ...defaults, ...options })
    servers.push(started)
    return started
  }
}
