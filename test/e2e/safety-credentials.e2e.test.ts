import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildWheel } from '../helpers/fake-pypi.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli } from '../helpers/run-cli.js'
import { filesIn, projectWithConfig, pypiServers } from '../helpers/e2e-setup.js'

// A mirror saved with a password (`resilient mirrors add corp https://user:pass@…`) is used by real pip,
// which gets the password from a 0600 netrc in the run's private directory: not on its command line, where any
// local user reads it in /proc/<pid>/cmdline, and not in any output.
const server = pypiServers()
const wheels = [buildWheel('demo-pkg', '1.0')]

/** A `pip` first on PATH that records its argv, then runs the real pip. */
function recordingPip(): { bin: string; log: string } {
  const bin = mkdtempSync(join(tmpdir(), 'resilient-argv-'))
  const log = join(bin, 'argv.log')
  writeFileSync(join(bin, 'pip'), `#!/bin/sh\nprintf '%s\\n' "$@" >> '${log}'\nprintf 'NETRC=%s\\n' "$NETRC" >> '${log}'\nexec python3 -m pip "$@"\n`)
  chmodSync(join(bin, 'pip'), 0o755)
  return { bin, log }
}

describe('a saved mirror password', () => {
  it('reaches the mirror as Basic auth through a netrc, never through pip\'s argv or any output', async () => {
    const primary = await server({ wheels, fault: { kind: 'status', status: 503 } })
    const mirror = await server({ wheels })
    const cwd = projectWithConfig({ pypi: { index: primary.url }, maxAttempts: 2, maxWaitSeconds: 1 })
    const { bin, log } = recordingPip()
    const env = isolatedEnv({ PATH: `${bin}:${process.env.PATH}` })
    const withPassword = mirror.url.replace('http://', 'http://corp:pw-s3cret-42@')
    const added = await runCli(['mirrors', 'add', 'corp', withPassword, '-e', 'pypi'], { cwd, env })
    expect(added.exitCode, added.all).toBe(0)
    expect(added.stderr).toMatch(/holds a password or token, now saved in .*config\.json \(readable by you only\)/)
    expect(added.all).not.toContain('pw-s3cret-42')
    const configFile = join(env.XDG_CONFIG_HOME!, 'resilient', 'config.json')
    expect((statSync(configFile).mode & 0o777).toString(8)).toBe('600')

    const dest = mkdtempSync(join(tmpdir(), 'resilient-dl-'))
    const result = await runCli(['--mirror', 'corp', 'pip', 'download', '--no-deps', '-d', dest, 'demo-pkg'], { cwd, env })
    expect(result.exitCode, result.all).toBe(0)
    expect(filesIn(dest)).toEqual(['demo_pkg-1.0-py3-none-any.whl'])
    expect(mirror.authorizations).toContain(`Basic ${Buffer.from('corp:pw-s3cret-42').toString('base64')}`)
    const argv = readFileSync(log, 'utf8')
    expect(argv).toContain(mirror.url)
    expect(argv).not.toContain('pw-s3cret-42')
    expect(argv).toMatch(/NETRC=\/\S+\/resilient-run-\d+-\w{6}\/netrc-[0-9a-f]{8}/)
    expect(result.all).not.toContain('pw-s3cret-42')
    // Not sent to the user's own index, which is another host.
    expect(primary.authorizations).toEqual([])
  }, 60_000)
})
