import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterEach, describe, expect, it } from 'vitest'
import { buildTarball, startNpmRegistry, type Fault, type NpmRegistry } from '../helpers/fake-npm-registry.js'
import { projectWithConfig } from '../helpers/e2e-setup.js'
import { envWithTool, served } from '../helpers/npm-registries.js'
import { runCli } from '../helpers/run-cli.js'

// npx, `npm exec`, `npm init <initializer>`, `pnpm dlx`, `yarn dlx` and `bun x`, real, against registries on 127.0.0.1:
// the program gets exactly the arguments the plain tool gives it, on every attempt (the first one through
// resilient's relay, a mirror after a dead registry). resilient's settings go to the tool, never after the program's
// name, where they would be the program's own arguments.

/** A program that writes the arguments it got, as JSON, one line per run. */
const ARGV_PROGRAM = `#!/usr/bin/env node
require('fs').appendFileSync(process.env.ARGV_RUNS, JSON.stringify(process.argv.slice(2)) + '\\n')
`
const PACKAGES = [
  buildTarball({ name: 'argv-bin', version: '1.0.0', bin: { 'argv-bin': 'cli.js' }, files: { 'cli.js': ARGV_PROGRAM } }),
  // What `npm init argv-bin` runs.
  buildTarball({ name: 'create-argv-bin', version: '1.0.0', bin: { 'create-argv-bin': 'cli.js' }, files: { 'cli.js': ARGV_PROGRAM } }),
]

type Tool = Parameters<typeof envWithTool>[0]

const FORMS: [string, Tool, string[]][] = [
  ['npx', 'npm', ['npx', '-y', 'argv-bin', 'hi', 'there']],
  ['npx, the program\'s own options', 'npm', ['npx', '--yes', 'argv-bin', '--verbose', '-x', 'there']],
  ['npm exec', 'npm', ['npm', 'exec', '-y', 'argv-bin', 'hi', 'there']],
  ['npm exec --', 'npm', ['npm', 'exec', '-y', '--', 'argv-bin', 'hi', 'there']],
  ['npm x', 'npm', ['npm', 'x', '-y', 'argv-bin', 'hi', 'there']],
  ['npm init <initializer>', 'npm', ['npm', 'init', '-y', 'argv-bin', 'my-app']],
  ['pnpm dlx', 'pnpm', ['pnpm', 'dlx', 'argv-bin', 'hi', 'there']],
  // pnpm 11 and 12 (test/tools): the registry reaches `pnpm dlx` by pnpm_config_registry alone.
  ['pnpm dlx (pnpm 11)', 'pnpm11', ['pnpm', 'dlx', 'argv-bin', 'hi', 'there']],
  ['pnpm dlx (pnpm 12)', 'pnpm12', ['pnpm', 'dlx', 'argv-bin', 'hi', 'there']],
  ['yarn dlx (berry)', 'berry', ['yarn', 'dlx', 'argv-bin', 'hi', 'there']],
  ['bun x', 'bun', ['bun', 'x', 'argv-bin', 'hi', 'there']],
  ['bunx', 'bun', ['bunx', 'argv-bin', 'hi', 'there']],
]

const registries: NpmRegistry[] = []
afterEach(async () => {
  await Promise.all(registries.splice(0).map(registry => registry.close()))
})
async function registry(fault: Fault = { kind: 'ok' }): Promise<NpmRegistry> {
  const started = await startNpmRegistry({ packages: PACKAGES, fault })
  registries.push(started)
  return started
}

const runsOf = (file: string): string[][] => {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map(line => JSON.parse(line) as string[])
  } catch {
    return []
  }
}

function project(config: unknown): { dir: string; runs: string } {
  const dir = projectWithConfig(config)
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'argv-project', version: '1.0.0', private: true }))
  writeFileSync(join(dir, '.yarnrc.yml'), 'enableTelemetry: false\n')
  return { dir, runs: join(dir, 'runs.txt') }
}

/**
 * What the plain tool gives the program, the registry set the way a person would (npmrc-style variables; pnpm 11+
 * reads only its own pnpm_config_ ones).
 */
async function plainArgs(tool: Tool, argv: string[], url: string): Promise<string[][]> {
  const { dir, runs } = project({})
  const registryEnv = { npm_config_registry: url, pnpm_config_registry: url, YARN_NPM_REGISTRY_SERVER: url.replace(/\/$/, ''), BUN_CONFIG_REGISTRY: url, YARN_UNSAFE_HTTP_WHITELIST: '127.0.0.1' }
  const env = envWithTool(tool, { ARGV_RUNS: runs, ...registryEnv })
  const result = await execa(argv[0]!, argv.slice(1), { cwd: dir, env, extendEnv: false, reject: false, all: true, stdin: 'ignore', timeout: 60_000 })
  expect(result.exitCode, result.all).toBe(0)
  return runsOf(runs)
}

describe('the program gets exactly its own arguments', () => {
  it.each(FORMS)('%s: through resilient\'s relay, as with the plain tool', async (_, tool, argv) => {
    const index = await registry()
    const plain = await plainArgs(tool, argv, index.url)
    expect(plain).toHaveLength(1)
    const { dir, runs } = project({ relay: true, npm: { index: index.url, mirrors: [] } })
    const result = await runCli(argv, { cwd: dir, env: envWithTool(tool, { ARGV_RUNS: runs }) })
    expect(result.exitCode, result.all).toBe(0)
    expect(runsOf(runs)).toEqual(plain)
  }, 120_000)

  it.each(FORMS)('%s: on a mirror after a dead registry, as with the plain tool', { timeout: 120_000 }, async (_, tool, argv) => {
    const index = await registry({ kind: 'blackhole' })
    const mirror = await registry()
    const plain = await plainArgs(tool, argv, mirror.url)
    const { dir, runs } = project({ npm: { index: index.url, mirrors: [mirror.url] } })
    // Below the test's own bound: a run that hangs is stopped and its output shown.
    const result = await runCli(argv, { cwd: dir, env: envWithTool(tool, { ARGV_RUNS: runs }), timeout: 100_000 })
    expect(result.exitCode, result.all).toBe(0)
    expect(served(mirror, 'argv-bin') || served(mirror, 'create-argv-bin')).toBe(true)
    expect(runsOf(runs)).toEqual(plain)
  })
})
