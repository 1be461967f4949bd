import { randomBytes } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { canSampleTrees } from '../../src/exec/progress/tree-counters.js'
import { buildTarball, startNpmRegistry, type NpmRegistry } from '../helpers/fake-npm-registry.js'
import { runCli } from '../helpers/run-cli.js'
import { projectWithConfig } from '../helpers/e2e-setup.js'
import { envWithTool, installed } from '../helpers/npm-registries.js'
import { describeNeeding, procFs } from '../helpers/requirements.js'

// The real npm through the built CLI. npm streams tarballs without a body timeout, so a trickling tarball would hold
// it forever: only progress can tell. Progress is measured on Linux only.
const registries: NpmRegistry[] = []
afterEach(async () => {
  await Promise.all(registries.splice(0).map(registry => registry.close()))
})

/** A package whose tarball is about `bytes` long: random data in base64 gzips back to about its own size. */
const bigPackage = (name: string, bytes: number) => buildTarball({ name, version: '1.0.0', files: { 'data.txt': randomBytes(bytes).toString('base64') } })

async function setup(tarball: ReturnType<typeof buildTarball>, bytesPerSecond: number, stall: { minBytesPerSecond: number; windowSeconds: number }) {
  const trickle = { kind: 'trickle', bytesPerSecond } as const
  const primary = await startNpmRegistry({ packages: [tarball], fault: ({ isFile }) => isFile ? trickle : { kind: 'ok' } })
  const mirror = await startNpmRegistry({ packages: [tarball] })
  registries.push(primary, mirror)
  const project = projectWithConfig({ npm: { index: primary.url, mirrors: [mirror.url] }, stall })
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'stall-project', version: '1.0.0', private: true }))
  const report = join(project, 'report.json')
  const started = Date.now()
  const result = await runCli(['--verbose', '--report', report, 'npm', 'install', tarball.spec.name], { cwd: project, env: envWithTool('npm') })
  const attempts = () => JSON.parse(readFileSync(report, 'utf8')).attempts
  return { ...result, primary, mirror, project, attempts, seconds: (Date.now() - started) / 1000 }
}

describeNeeding(procFs(canSampleTrees()), 'stall detection with real npm', () => {
  it('abandons a registry that trickles the tarball at 50 B/s and installs from the mirror', async () => {
    // npm ignores SIGTERM while it fetches: it is stopped by SIGKILL 3 s later, within the time allowed.
    const stall = { minBytesPerSecond: 500, windowSeconds: 5 }
    const tarball = bigPackage('trickled-x', 60_000)
    const run = await setup(tarball, 50, stall)
    expect(run.exitCode, run.all).toBe(0)
    expect(installed(run.project, 'trickled-x')).toBe(true)
    const [stalled, recovered] = run.attempts()
    expect(stalled.diagnosis).toMatchObject({ category: 'timeout', rule: 'resilient-stall' })
    // Stopped by resilient long before the trickle would have ended (20 minutes at 50 B/s); how soon after the window
    // is for a quiet machine (npm run bench), not for one the test shares.
    expect(stalled.stoppedByResilient).toBe(true)
    expect(stalled.durationMs).toBeLessThan(tarball.bytes.length / 50 * 1000 / 10)
    expect(stalled.diagnosis.summary).toMatch(new RegExp(`^stalled: \\d+ bytes in 5 s from 127\\.0\\.0\\.1:${run.primary.port}$`))
    expect(recovered.diagnosis).toBeNull()
    expect(run.mirror.requests).toContain('/trickled-x/-/trickled-x-1.0.0.tgz')
  })

  it('never interrupts a 2.5 MB tarball served steadily above the floor for longer than the window', async () => {
    const tarball = bigPackage('steady-x', 2_500_000)
    const run = await setup(tarball, 250_000, { minBytesPerSecond: 50_000, windowSeconds: 4 })
    expect(run.exitCode, run.all).toBe(0)
    expect(installed(run.project, 'steady-x')).toBe(true)
    expect(run.seconds).toBeGreaterThan(10)
    const attempts = run.attempts()
    expect(attempts).toHaveLength(1)
    // Sampled once a second: the last second before the connection closes is not seen.
    expect(attempts[0].throughput.bytes).toBeGreaterThan(tarball.bytes.length - 300_000)
    expect(run.mirror.requests).toEqual([])
  })
})
