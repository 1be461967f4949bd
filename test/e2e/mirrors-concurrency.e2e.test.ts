import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { stateSchema } from '../../src/state/schema.js'
import { buildWheel, startPypiServer, type PypiServer } from '../helpers/fake-pypi.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli } from '../helpers/run-cli.js'
import { projectWithConfig } from '../helpers/e2e-setup.js'

// 20 resilient processes at once (a CI matrix, make -j), each failing on the index and recovering on a mirror,
// all recording into one state file. A fake pip keeps 40 tool runs cheap on a 2-core machine: it asks the index
// for the project page as pip does and, on an error status, prints what pip 23.2 prints once its retries are spent.
const FAKE_PIP = `#!/usr/bin/env node
const args = process.argv.slice(2)
const at = args.lastIndexOf('--index-url')
const index = at >= 0 ? args[at + 1] : 'https://pypi.org/simple'
const name = args[args.indexOf('download') + 1]
const response = await fetch(index + '/' + name + '/').catch(() => undefined)
if (response && response.ok) process.exit(0)
process.stderr.write('ERROR: Could not find a version that satisfies the requirement ' + name + ' (from versions: none)\\nERROR: No matching distribution found for ' + name + '\\n')
process.exit(1)
`

const servers: PypiServer[] = []
afterEach(async () => { await Promise.all(servers.splice(0).map(server => server.close())) })

describe('many resilient processes at once', () => {
  it('20 parallel runs record every outcome, and leave one valid state file', async () => {
    const wheels = [buildWheel('demo-pkg', '1.0')]
    const primary = await startPypiServer({ wheels, fault: { kind: 'status', status: 503 } })
    const mirror = await startPypiServer({ wheels })
    servers.push(primary, mirror)
    const bin = mkdtempSync(join(tmpdir(), 'resilient-bin-'))
    writeFileSync(join(bin, 'pip'), FAKE_PIP)
    chmodSync(join(bin, 'pip'), 0o755)
    const base = isolatedEnv()
    const env: Record<string, string> = { ...base, PATH: `${bin}${delimiter}${base.PATH}` }
    // A high threshold keeps every run contacting both, so that the counts are exact.
    const cwd = projectWithConfig({ breaker: { failureThreshold: 1000 }, pypi: { index: primary.url, mirrors: [mirror.url] } })

    const reports = Array.from({ length: 20 }, (_, run) => join(cwd, `report-${run}.json`))
    const runs = await Promise.all(reports.map(report => runCli(['--report', report, 'pip', 'download', 'demo-pkg'], { cwd, env })))
    // What each run saw of the index: a 503 is waited on once (two failures), unless resilient's own check of the index
    // timed out on this busy machine (a timeout moves on at once).
    const failed = reports.map(report => (JSON.parse(readFileSync(report, 'utf8')).attempts as { diagnosis: { category: string } | null }[])
      .flatMap(attempt => attempt.diagnosis ? [attempt.diagnosis.category] : []))
    for (const run of runs) expect(run.exitCode, run.all).toBe(0)
    expect(runs.map(run => run.stderr).join('')).not.toMatch(/could not update|lock .* lost|set aside/)

    const dir = env.RESILIENT_STATE_DIR!
    // No temporary file, lock or set-aside copy left behind (other files, such as run logs, are not ours).
    expect(readdirSync(dir).filter(name => name.startsWith('state.json'))).toEqual(['state.json'])
    const state = stateSchema.parse(JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')))
    const [network] = Object.values(state.networks)
    const failures = failed.flat().length
    expect(failures).toBeGreaterThanOrEqual(20)
    expect(network!.mirrors[primary.url]).toMatchObject({ failures, successes: 0, consecutiveFailures: failures })
    expect(network!.mirrors[mirror.url]).toMatchObject({ failures: 0, successes: 20 })
    // Each run learned once per cause that the mirror fixed the index's failure.
    const fixes = Object.values(state.fixes)
    expect(fixes.every(fix => fix.tool === 'pip' && fix.url === mirror.url && fix.failingHost === `127.0.0.1:${primary.port}`)).toBe(true)
    expect(fixes.reduce((sum, fix) => sum + fix.count, 0)).toBe(failed.reduce((sum, categories) => sum + new Set(categories).size, 0))
  }, 240_000)
})
