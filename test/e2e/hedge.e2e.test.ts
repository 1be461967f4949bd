import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, expect, it } from 'vitest'
import { canSampleTrees } from '../../src/exec/progress/tree-counters.js'
import { buildWheel, type BuiltWheel } from '../helpers/fake-pypi.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli } from '../helpers/run-cli.js'
import { filesIn, projectWithConfig, pypiServers } from '../helpers/e2e-setup.js'
import { envWithTool, installed, primaryAndMirror, type Setup } from '../helpers/npm-registries.js'
import { describeNeeding, procFs } from '../helpers/requirements.js'

// Hedged detection with the real pip and npm against fault servers on 127.0.0.1: a probe of the index in
// parallel with the first attempt, which is left for the mirror when neither the tool nor the probe hears anything.
// The silence it names is the one measured: 2 s on a quiet machine, more when the mirror's own answer came slowly.
const HEDGED = /^no answer from 127\.0\.0\.1:\d+: nothing received in \d+ s/
let wheels: BuiltWheel[]
beforeAll(() => {
  wheels = [buildWheel('demo-pkg', '1.0', { paddingBytes: 200_000 })]
})
const server = pypiServers()

type Report = { attempts: { durationMs: number; command: string[]; stoppedByResilient: boolean; diagnosis: { summary: string; category: string } | null }[] }

async function pipDownload(cwd: string, extra: string[] = []) {
  const dest = mkdtempSync(join(tmpdir(), 'resilient-dl-'))
  const report = join(mkdtempSync(join(tmpdir(), 'resilient-report-')), 'report.json')
  const result = await runCli(['--report', report, 'python3', '-m', 'pip', 'download', '--no-deps', '-d', dest, ...extra, 'demo-pkg'], { cwd, env: isolatedEnv() })
  return { ...result, dest, report: JSON.parse(readFileSync(report, 'utf8')) as Report }
}

describeNeeding(procFs(canSampleTrees()), 'hedged detection of a dead index', () => {
  let npmSetup: Setup | undefined
  afterEach(async () => {
    await npmSetup?.close()
    npmSetup = undefined
  })

  it('pip: a black-holed index is left after ~2 s of silence while the mirror answers, long before pip\'s own 15 s timeout', async () => {
    const primary = await server({ wheels, fault: { kind: 'blackhole' } })
    const mirror = await server({ wheels })
    const result = await pipDownload(projectWithConfig({ pypi: { index: primary.url, mirrors: [mirror.url] } }))
    expect(result.exitCode, result.all).toBe(0)
    expect(filesIn(result.dest)).toEqual(['demo_pkg-1.0-py3-none-any.whl'])
    const [first, second] = result.report.attempts
    expect(first!.diagnosis!.summary).toMatch(HEDGED)
    expect(first!.stoppedByResilient).toBe(true)
    expect(second!.diagnosis).toBeNull()
    // The probe asked for a project page (the same request as `mirrors test`), never for anything to install.
    expect(primary.requests).toContain('/simple/pip/')
    expect(primary.requests.filter(path => path.startsWith('/files/'))).toEqual([])
  }, 120_000)

  it('npm: the same with a black-holed registry', async () => {
    npmSetup = await primaryAndMirror({ kind: 'blackhole' })
    const report = join(mkdtempSync(join(tmpdir(), 'resilient-report-')), 'report.json')
    const result = await runCli(['--report', report, 'npm', 'install', 'left-pad-x'], { cwd: npmSetup.project, env: envWithTool('npm') })
    expect(result.exitCode, result.all).toBe(0)
    expect(installed(npmSetup.project, 'left-pad-x')).toBe(true)
    const attempts = (JSON.parse(readFileSync(report, 'utf8')) as Report).attempts
    expect(attempts[0]!.diagnosis!.summary).toMatch(HEDGED)
    expect(attempts.at(-1)!.command.join(' ')).toContain(npmSetup.mirror.url)
    expect(npmSetup.primary.requests).toContain('/is-number')
  }, 120_000)

  it('never hedges an index the person chose: silent for 5 s, it is waited for, and no mirror is asked', async () => {
    const primary = await server({ wheels, fault: ({ count }) => count === 1 ? { kind: 'delay', ms: 5000 } : { kind: 'ok' } })
    const mirror = await server({ wheels })
    const result = await pipDownload(projectWithConfig({ pypi: { mirrors: [mirror.url] } }), ['--index-url', primary.url])
    expect(result.exitCode, result.all).toBe(0)
    expect(result.report.attempts.map(attempt => attempt.diagnosis)).toEqual([null])
    expect(primary.requests).not.toContain('/simple/pip/')
    expect(mirror.requests).toEqual([])
  }, 120_000)

  it('leaves nothing on a long-haul link: every index answering after 3.5 s, the index is kept', async () => {
    const slow = { kind: 'delay', ms: 3500 } as const
    const primary = await server({ wheels, fault: slow })
    const mirror = await server({ wheels, fault: slow })
    const result = await pipDownload(projectWithConfig({ pypi: { index: primary.url, mirrors: [mirror.url] } }))
    expect(result.exitCode, result.all).toBe(0)
    expect(result.report.attempts.map(attempt => attempt.diagnosis)).toEqual([null])
    expect(mirror.requests.filter(path => path !== '/simple/pip/')).toEqual([])
  }, 120_000)

  it('never hedges when the person set the tool\'s own timeout: the tool ends the attempt', async () => {
    const primary = await server({ wheels, fault: { kind: 'blackhole' } })
    const mirror = await server({ wheels })
    const result = await pipDownload(projectWithConfig({ pypi: { index: primary.url, mirrors: [mirror.url] } }), ['--timeout', '4', '--retries', '0'])
    expect(result.exitCode, result.all).toBe(0)
    const [first, second] = result.report.attempts
    expect(first!.diagnosis!.category).toBe('timeout')
    expect(first!.diagnosis!.summary).not.toMatch(HEDGED)
    expect(first!.durationMs).toBeGreaterThan(4000)
    expect(second!.diagnosis).toBeNull()
  }, 120_000)

  it('never hedges while the tool receives data, even when the probe gets no answer', async () => {
    // The wheel trickles in over ~5 s; the probe's page is black-holed.
    const primary = await server({ wheels, fault: ({ path, isFile }) => path === '/simple/pip/' ? { kind: 'blackhole' } : isFile ? { kind: 'trickle', bytesPerSecond: 40_000 } : { kind: 'ok' } })
    const mirror = await server({ wheels })
    const result = await pipDownload(projectWithConfig({ pypi: { index: primary.url, mirrors: [mirror.url] } }))
    expect(result.exitCode, result.all).toBe(0)
    expect(result.report.attempts.map(a => a.diagnosis?.summary ?? null)).toEqual([null])
    expect(result.report.attempts[0]!.durationMs).toBeGreaterThan(2500)
    expect(primary.requests).toContain('/simple/pip/')
    // The mirror got resilient's own small request (the index had not answered its own), nothing to install.
    expect(mirror.requests).toEqual(['/simple/pip/'])
  }, 120_000)
})
