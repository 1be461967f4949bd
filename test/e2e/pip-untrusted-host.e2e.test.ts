import { networkInterfaces } from 'node:os'
import { expect } from 'vitest'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { command, itNeeding, type Requirement } from '../helpers/requirements.js'
import { runCli } from '../helpers/run-cli.js'
import { projectWithConfig } from '../helpers/e2e-setup.js'

// pip ignores a plain-http index on any host but loopback ("not a trusted or secure host") without contacting it,
// then says only "No matching distribution": the advice must be https or --trusted-host, never a CA bundle.
const address = Object.values(networkInterfaces()).flat().find(entry => entry?.family === 'IPv4' && !entry.internal)?.address
const otherHost: Requirement = { name: 'an IPv4 address other than loopback', available: Boolean(address) }

itNeeding([command('pip'), otherHost], 'an http:// index on another host: its own diagnosis and fix, not TLS advice', async () => {
  const index = `http://${address}:9/simple`
  const result = await runCli(['--no-input', 'pip', 'download', '--no-deps', '--index-url', index, 'demo-pkg'], { cwd: projectWithConfig({}), env: isolatedEnv() })
  expect(result.exitCode).toBe(1)
  expect(result.stderr).toContain(`pip ignored the plain-HTTP index ${address} (not a trusted host)`)
  expect(result.stderr).toMatch(/what to do: Use the index over HTTPS, or, if you trust the network path, allow it for this run: pip install --trusted-host/)
  expect(result.stderr).not.toMatch(/--cert|CA bundle/)
}, 60_000)
