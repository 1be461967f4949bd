import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildWheel } from '../helpers/fake-pypi.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli } from '../helpers/run-cli.js'
import { projectWithConfig, pypiServers } from './helpers.js'

// resilient decides from the source pip really uses, and where it cannot know it, treats it as private. A private
// index (or no index at all) fails; a public mirror, a local server standing in for one, carries a look-alike
// `privpkg 9.9.9`. The mirror must receive no request at all: no attempt, no probe with the package's name.
const server = pypiServers()
const LOOK_ALIKE = [buildWheel('privpkg', '9.9.9')]
const dest = () => mkdtempSync(join(tmpdir(), 'resilient-dl-'))

describe('real pip: the source pip resolves', () => {
  it('pip.conf no-index with find-links: no mirror switch, no probe of a public index', async () => {
    const mirror = await server({ wheels: LOOK_ALIKE })
    const cwd = projectWithConfig({ pypi: { mirrors: [mirror.url] }, maxAttempts: 3, maxWaitSeconds: 1 })
    const wheels = join(cwd, 'wheels')
    mkdirSync(wheels)
    const conf = join(cwd, 'pip.conf')
    writeFileSync(conf, `[global]\nno-index = true\nfind-links = ${wheels}\n`)
    const result = await runCli(['-v', 'python3', '-m', 'pip', 'download', '--no-deps', '-d', dest(), 'privpkg'], { cwd, env: isolatedEnv({ PIP_CONFIG_FILE: conf }) })
    expect(result.exitCode, result.all).not.toBe(0)
    expect(mirror.requests, result.all).toEqual([])
    expect(result.stderr).toMatch(/No matching distribution found for privpkg/)
    expect(result.stderr).not.toMatch(/switching to|on mirror|resilient asked/)
    expect(result.stderr).toMatch(/no mirror will be used: the command uses a local index \(.*pip\.conf \[global\] no-index\)/)
  }, 60_000)

  it('another path on the declared index\'s host is another index: pip -i .../team-private/simple keeps no mirror', async () => {
    // One server, one host and port: the declared public repository and the team's private one differ by path only.
    const artifactory = await server({ wheels: [], fault: { kind: 'status', status: 503 } })
    const mirror = await server({ wheels: LOOK_ALIKE })
    const base = artifactory.url.replace(/simple$/, '')
    const cwd = projectWithConfig({ pypi: { index: `${base}api/pypi/pypi-remote/simple`, mirrors: [mirror.url] }, maxAttempts: 2, maxWaitSeconds: 1 })
    const result = await runCli(['python3', '-m', 'pip', 'download', '--no-deps', '-d', dest(), '-i', `${base}api/pypi/team-private/simple`, 'corp-secret-lib'], { cwd, env: isolatedEnv() })
    expect(result.exitCode, result.all).not.toBe(0)
    expect(artifactory.requests.some(path => path.startsWith('/api/pypi/team-private/simple/corp-secret-lib')), result.all).toBe(true)
    expect(mirror.requests, result.all).toEqual([])
  }, 60_000)
})
