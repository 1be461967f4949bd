import { writeFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { join } from 'node:path'
import { execa } from 'execa'
import { describe, expect, it } from 'vitest'
import { buildWheel } from '../helpers/fake-pypi.js'
import { projectWithConfig, pypiServers } from '../helpers/e2e-setup.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { command, describeNeeding } from '../helpers/requirements.js'
import { runCli, runWithReport } from '../helpers/run-cli.js'

// `resilient why` on the log of a failure of the person's own index (a private or loopback one) advises what a run
// does there: that index again, never a public mirror, which the retry loop itself refuses (dependency confusion).

const server = pypiServers({ wheels: [buildWheel('demo-pkg', '1.0')] })
const PUBLIC_MIRROR_ADVICE = /aliyun|npmmirror|tsinghua|mirrors test|another index for one run|switches to a mirror|retry on another mirror/

/** A port on 127.0.0.1 where nothing listens. */
async function closedPort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>(resolve => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as AddressInfo
  await new Promise(resolve => probe.close(resolve))
  return port
}

/** What real pip prints for `pip download demo-pkg` from `index`, saved as a person would save it. */
async function pipLog(index: string, cwd: string): Promise<string> {
  const env = isolatedEnv({ PIP_RETRIES: '1' })
  const result = await execa('pip', ['download', '--no-deps', '-d', join(cwd, 'dl'), '--index-url', index, 'demo-pkg'], { env, extendEnv: false, reject: false, all: true, timeout: 60_000 })
  expect(result.exitCode).not.toBe(0)
  const log = join(cwd, 'build.log')
  writeFileSync(log, result.all)
  return log
}

describeNeeding(command('pip'), 'resilient why on a log of your own index', () => {
  it('a loopback index that refused the connection: its retry, no public mirror, as the run itself does', async () => {
    const index = `http://127.0.0.1:${await closedPort()}/simple`
    const cwd = projectWithConfig({})
    const log = await pipLog(index, cwd)
    const why = await runCli(['why', log], { cwd })
    expect(why.exitCode, why.all).toBe(0)
    expect(why.stdout).toContain('host: 127.0.0.1 (your own index)')
    expect(why.stdout).toContain('retry or another mirror: a retry of 127.0.0.1 can help; another mirror cannot')
    expect(why.stdout).toMatch(/next step: 127\.0\.0\.1 refused the connection/)
    expect(why.stdout).not.toMatch(PUBLIC_MIRROR_ADVICE)
    const json = JSON.parse((await runCli(['why', '--json', log], { cwd })).stdout) as Record<string, unknown>
    expect(json).toMatchObject({ category: 'connection', index: 'own', mirrorCanHelp: false })
    // The run: every attempt on that index, and its advice names no other.
    const run = await runWithReport(['pip', 'download', '--no-deps', '-d', join(cwd, 'dl'), '--index-url', index, 'demo-pkg'], { cwd, env: isolatedEnv({ PIP_RETRIES: '1' }) })
    expect(run.attempts.length).toBeGreaterThan(0)
    expect(run.attempts.every(attempt => attempt.command.includes(index))).toBe(true)
    expect(run.stderr).not.toMatch(PUBLIC_MIRROR_ADVICE)
  }, 120_000)

  it('a loopback index answering 503 (pip says only "No matching distribution"): no public mirror either', async () => {
    const index = await server({ fault: { kind: 'status', status: 503 } })
    const cwd = projectWithConfig({})
    const why = await runCli(['why', '--tool', 'pip', await pipLog(index.url, cwd)], { cwd })
    expect(why.stdout).toContain('(your own index)')
    expect(why.stdout).not.toMatch(PUBLIC_MIRROR_ADVICE)
  }, 120_000)

  it('the same index named in the config as the pypi index (mirrors allowed for it): a mirror can help, as in a run', async () => {
    const index = `http://127.0.0.1:${await closedPort()}/simple`
    // Loopback mirrors only: a project config sending installs to other hosts is used only once trusted.
    const cwd = projectWithConfig({ pypi: { index, mirrors: [`http://127.0.0.1:${await closedPort()}/simple`] } })
    const why = await runCli(['why', '--json', await pipLog(index, cwd)], { cwd })
    expect(JSON.parse(why.stdout)).toMatchObject({ category: 'connection', index: 'public', mirrorCanHelp: true })
  }, 120_000)

  it('pip\'s default index (pypi.org, which pip does not name in its log): another mirror can help', async () => {
    const cwd = projectWithConfig({})
    // No network here: pip cannot resolve pypi.org, or cannot connect to it.
    const why = await runCli(['why', '--json', await pipLog('https://pypi.org/simple', cwd)], { cwd })
    const json = JSON.parse(why.stdout) as Record<string, unknown>
    expect(json.index).not.toBe('own')
    expect(json.mirrorCanHelp).toBe(true)
  }, 120_000)
})
