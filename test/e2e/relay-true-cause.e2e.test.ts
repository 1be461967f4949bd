import { afterEach, describe, expect, it } from 'vitest'
import { buildTarball, startNpmRegistry, type NpmRegistry } from '../support/npm-registry.js'
import type { Fault } from '../../src/demo/fault-server.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli } from '../helpers/run-cli.js'
import { projectWithConfig } from '../helpers/e2e-setup.js'

// The built CLI, real npm through resilient's relay, the registry failing and no mirror: npm's error names the
// relay's loopback address (http://127.x.y.z:<port>/...), yet what resilient says of the cause names the registry.
const registries: NpmRegistry[] = []
afterEach(async () => { await Promise.all(registries.splice(0).map(registry => registry.close())) })

/** What resilient says of the cause (✖ an attempt failed, gave up; → what to do; … waiting), not the tool's lines nor its commands. */
const ownLines = (stderr: string) => stderr.split('\n').filter(line => /^\s*(✖|→ what to do|…)/.test(line))

describe('the true host behind the relay', () => {
  const cases: [string, Fault | 'down', RegExp][] = [
    ['answers 503', { kind: 'status', status: 503 }, /server error — 127\.0\.0\.1:PORT answered HTTP 503/],
    ['resets every connection', { kind: 'reset' }, /connection — 127\.0\.0\.1:PORT reset the connection \(seen by resilient's relay\)/],
    ['is down (nothing listens on its port)', 'down', /127\.0\.0\.1:PORT (refused the connection|could not be connected to) \(seen by resilient's relay\)/],
  ]
  for (const [what, fault, summary] of cases) it(`npm, the registry ${what}, no mirror: the give-up names the registry, not the relay`, async () => {
    const registry = await startNpmRegistry({ packages: [buildTarball({ name: 'left-pad-x', version: '1.0.0' })], ...(fault !== 'down' && { fault }) })
    if (fault === 'down') await registry.close()
    else registries.push(registry)
    const cwd = projectWithConfig({ relay: true, maxAttempts: 2, npm: { index: registry.url, mirrors: [] } })
    const result = await runCli(['--no-mirrors', 'npm', 'install', '--fetch-retries=0', 'left-pad-x'], { cwd, env: isolatedEnv() })
    expect(result.exitCode, result.all).not.toBe(0)
    // npm itself met only the relay.
    const relay = /GET http:\/\/(127\.\d+\.\d+\.\d+:\d+)\//.exec(result.stderr)?.[1]
    expect(relay, result.stderr).toBeDefined()
    expect(relay).not.toBe(`127.0.0.1:${registry.port}`)
    const own = ownLines(result.stderr).join('\n')
    expect(own, result.stderr).toMatch(new RegExp(`(gave up after 2 attempts|failed after [\\d.]+ s, not retried).*${summary.source.replace('PORT', String(registry.port))}`))
    expect(own).toMatch(new RegExp(`→ what to do: .*127\\.0\\.0\\.1:${registry.port}`))
    expect(own).not.toContain(relay!)
    expect(own).not.toContain(relay!.replace(/:\d+$/, ' '))
    expect(result.stderr).toContain(`resilient's relay at ${relay} stands for 127.0.0.1:${registry.port}`)
  }, 120_000)
})
