import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runTool, type RunReporter } from '../../src/index.js'
import { buildWheel, type BuiltWheel } from '../helpers/fake-pypi.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { filesIn, projectWithConfig, pypiServers } from '../helpers/e2e-setup.js'

// A tool run as a program calls it: runTool from the package's API, real pip against local indexes, the program's
// own reporter, no command line and no process of resilient's own.
let wheels: BuiltWheel[]
beforeAll(() => {
  wheels = [buildWheel('demo-pkg', '1.0')]
})
const server = pypiServers()

/** A reporter that keeps what it is told, as a program embedding the run would. */
function keepingReporter() {
  const said: string[] = []
  const reporter: RunReporter = {
    attemptStarted: event => void said.push(`started ${event.number}/${event.total} ${event.source.label}`),
    attemptFailed: event => void said.push(`failed ${event.number} ${event.diagnosis.category}`),
    waiting: () => undefined,
    note: message => void said.push(`note ${message}`),
    verbose: () => undefined,
    warn: message => void said.push(`warn ${message}`),
    finished: result => void said.push(`finished ${result.outcome}`),
  }
  return { reporter, said }
}

describe('runTool, the tool run as a library call', () => {
  it('runs real pip with a failover to the mirror, and returns the exit status, the attempts and the report', async () => {
    const primary = await server({ wheels, fault: { kind: 'corrupt' } })
    const mirror = await server({ wheels })
    const cwd = projectWithConfig({ pypi: { index: primary.url, mirrors: [mirror.url] }, relay: false })
    const dest = mkdtempSync(join(tmpdir(), 'resilient-lib-'))
    const { reporter, said } = keepingReporter()
    const before = JSON.stringify(process.env)

    const run = await runTool(['python3', '-m', 'pip', 'download', '--no-deps', '-d', dest, 'demo-pkg'], { reporter, env: isolatedEnv(), cwd, stdio: { stdout: 2, noInput: true } })

    expect(run, said.join('\n')).toMatchObject({ tool: 'pip', exitCode: 0, signal: undefined })
    expect(filesIn(dest)).toEqual(['demo_pkg-1.0-py3-none-any.whl'])
    expect(run.result?.attempts.map(attempt => attempt.diagnosis?.category ?? null)).toEqual(['hash_mismatch', null])
    expect(run.report?.attempts[1]?.command.join(' ')).toContain(mirror.url)
    expect(said).toContain('failed 1 hash_mismatch')
    expect(said.at(-1)).toBe('finished succeeded')
    // The run read the environment it was given and wrote none: the caller's process is as it was.
    expect(JSON.stringify(process.env)).toBe(before)
  })

  it('returns the signal a tool died of, beside its exit code, for the caller to end the same way', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fake-pip-'))
    writeFileSync(join(dir, 'pip'), '#!/bin/sh\nkill -TERM $$\n')
    chmodSync(join(dir, 'pip'), 0o755)
    const { reporter } = keepingReporter()
    const run = await runTool(['pip', 'install', 'demo-pkg'], { reporter, env: isolatedEnv({ PATH: `${dir}:${process.env.PATH}` }), cwd: projectWithConfig({ relay: false }), stdio: { noInput: true } })
    expect(run).toMatchObject({ tool: 'pip', exitCode: 143, signal: 'SIGTERM' })
    expect(run.result?.attempts).toHaveLength(1)
  })
})
