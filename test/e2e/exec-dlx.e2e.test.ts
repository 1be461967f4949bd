import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { buildTarball, startNpmRegistry, type Fault } from '../helpers/fake-npm-registry.js'
import { runCli } from '../helpers/run-cli.js'
import { projectWithConfig } from '../helpers/e2e-setup.js'
import { envWithTool, served } from '../helpers/npm-registries.js'

// npx, `pnpm dlx`, `yarn dlx` and bunx, real, against registries on 127.0.0.1: the fetch is planned as an install
// (a dead registry is left for a mirror), the program runs once. The program appends a line to a file each time it
// runs, so a second run cannot go unseen.
const hello = (exit = 0) => buildTarball({ name: 'hello-bin', version: '1.0.0', bin: { 'hello-bin': 'cli.js' }, files: {
  'cli.js': `#!/usr/bin/env node
require('fs').appendFileSync(process.env.HELLO_RUNS, 'ran ' + process.argv.slice(2).join(' ') + '\\n')
console.log('hello from the program', process.argv.slice(2).join(' '))
${exit ? `console.error('npm error code ECONNRESET'); console.error('npm error network aborted'); process.exit(${exit})` : ''}
` } })

interface Registries { primary: Awaited<ReturnType<typeof startNpmRegistry>>; mirror: Awaited<ReturnType<typeof startNpmRegistry>>; project: string; runs: string }

async function registries(fault: Fault, exit = 0, relay = false): Promise<Registries> {
  const tarball = hello(exit)
  const primary = await startNpmRegistry({ packages: [tarball], fault })
  const mirror = await startNpmRegistry({ packages: [tarball] })
  const project = projectWithConfig({ relay, npm: { index: primary.url, mirrors: [mirror.url] } })
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'exec-project', version: '1.0.0', private: true }))
  return { primary, mirror, project, runs: join(project, 'runs.txt') }
}

const runsOf = (file: string) => {
  try {
    return readFileSync(file, 'utf8').trim().split('\n')
  } catch {
    return []
  }
}

describe('resilient npx / dlx / bunx (real tools)', () => {
  let open: Registries | undefined
  afterEach(async () => {
    await open?.primary.close()
    await open?.mirror.close()
    open = undefined
  })

  it('npx --yes --package <pkg> -- <cmd>: a dead registry is left for the mirror, and the program runs once there', async () => {
    open = await registries({ kind: 'blackhole' })
    const result = await runCli(['npx', '--yes', '--package', 'hello-bin', '--', 'hello-bin', 'a', 'b'], { cwd: open.project, env: envWithTool('npm', { HELLO_RUNS: open.runs }) })
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stdout).toBe('hello from the program a b')
    expect(runsOf(open.runs)).toEqual(['ran a b'])
    expect(served(open.mirror, 'hello-bin')).toBe(true)
    // The registry goes in npx's environment: anything appended would be the program's argument.
    expect(result.stderr).toContain(`→ attempt 2 of 2 on mirror ${new URL(open.mirror.url).host}: npm_config_registry=${open.mirror.url}`)
    expect(result.stderr).toContain('npx --yes --package hello-bin -- hello-bin a b\n')
  }, 60_000)

  it('npx through the relay: a dead registry\'s requests go to the mirror within the one attempt, the program runs once', async () => {
    open = await registries({ kind: 'blackhole' }, 0, true)
    const env = envWithTool('npm', { HELLO_RUNS: open.runs })
    const result = await runCli(['--report', join(env.HOME!, 'report.json'), 'npx', '--yes', 'hello-bin', 'a', 'b'], { cwd: open.project, env })
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stdout).toBe('hello from the program a b')
    expect(runsOf(open.runs)).toEqual(['ran a b'])
    expect(served(open.mirror, 'hello-bin')).toBe(true)
    const report = JSON.parse(readFileSync(join(env.HOME!, 'report.json'), 'utf8')) as { attempts: unknown[]; relay: { mirrorPages: unknown } }
    expect(report.attempts).toHaveLength(1)
    expect(report.relay.mirrorPages).toMatchObject({ because: 'timeout' })
  }, 90_000)

  it('never runs the program again, whatever its failure looks like: its status is passed on, nothing is retried', async () => {
    open = await registries({ kind: 'ok' }, 7)
    const result = await runCli(['npm', 'exec', '--yes', '--package', 'hello-bin', '--', 'hello-bin', 'once'], { cwd: open.project, env: envWithTool('npm', { HELLO_RUNS: open.runs }) })
    expect(result.exitCode, result.all).toBe(7)
    expect(runsOf(open.runs)).toEqual(['ran once'])
    expect(result.stderr).toContain('npm error code ECONNRESET')
    expect(result.stderr).not.toMatch(/attempt 2|gave up|switching/)
    expect(served(open.mirror, 'hello-bin')).toBe(false)
  }, 60_000)

  it('pnpm dlx: the same, with the registry in pnpm\'s variables (pnpm dlx refuses --registry)', async () => {
    open = await registries({ kind: 'blackhole' })
    const result = await runCli(['pnpm', 'dlx', 'hello-bin', 'c'], { cwd: open.project, env: envWithTool('pnpm', { HELLO_RUNS: open.runs }) })
    expect(result.exitCode, result.all).toBe(0)
    expect(runsOf(open.runs)).toEqual(['ran c'])
    expect(served(open.mirror, 'hello-bin')).toBe(true)
  }, 60_000)

  it('yarn dlx (berry): the same, through YARN_NPM_REGISTRY_SERVER', async () => {
    open = await registries({ kind: 'blackhole' })
    writeFileSync(join(open.project, '.yarnrc.yml'), 'enableTelemetry: false\n')
    const result = await runCli(['yarn', 'dlx', 'hello-bin', 'd'], { cwd: open.project, env: envWithTool('berry', { HELLO_RUNS: open.runs }) })
    expect(result.exitCode, result.all).toBe(0)
    expect(runsOf(open.runs)).toEqual(['ran d'])
    expect(served(open.mirror, 'hello-bin')).toBe(true)
  }, 60_000)

  it('bun x (bunx): the same, through BUN_CONFIG_REGISTRY', { timeout: 60_000 }, async () => {
    open = await registries({ kind: 'blackhole' })
    const env = envWithTool('bun', { HELLO_RUNS: open.runs })
    const result = await runCli(['bun', 'x', 'hello-bin', 'e'], { cwd: open.project, env })
    expect(result.exitCode, result.all).toBe(0)
    expect(runsOf(open.runs)).toEqual(['ran e'])
    expect(served(open.mirror, 'hello-bin')).toBe(true)
  })
})
