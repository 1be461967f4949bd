import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { canSampleTrees } from '../../src/exec/progress/tree-counters.js'
import { buildWheel, type BuiltWheel } from '../helpers/fake-pypi.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { gzippedTar } from '../helpers/npm-tarball.js'
import { runCli } from '../helpers/run-cli.js'
import { filesIn, projectWithConfig, pypiServers } from '../helpers/e2e-setup.js'
import { describeNeeding, procFs } from '../helpers/requirements.js'

// Real pip through the built CLI: stall detection judges by progress, so a trickle is abandoned for the mirror,
// while a slow steady download and a slow local build are left alone. Progress is measured on Linux only.
const server = pypiServers()

interface AttemptReport {
  source: string
  command: string[]
  diagnosis: { category: string; summary: string; rule: string } | null
  throughput: { bytes: number; seconds: number; bytesPerSecond: number; counter: string } | null
  stoppedByResilient: boolean
  durationMs: number
}

async function download(cwd: string, spec: string) {
  const dest = mkdtempSync(join(tmpdir(), 'resilient-dl-'))
  const report = join(dest, '..', `report-${Date.now()}-${Math.random()}.json`)
  const env = isolatedEnv()
  const started = Date.now()
  const result = await runCli(['--verbose', '--report', report, 'python3', '-m', 'pip', 'download', '--no-deps', '-d', dest, spec], { cwd, env })
  const attempts = (): AttemptReport[] => JSON.parse(readFileSync(report, 'utf8')).attempts
  /** Outcomes remembered for an index (src/state: the circuit breaker counts the failures). */
  const health = (port: number): { ok: boolean; category?: string }[] => {
    const state = JSON.parse(readFileSync(join(env.RESILIENT_STATE_DIR!, 'state.json'), 'utf8'))
    const networks = Object.values(state.networks) as { mirrors: Record<string, { url: string; recent: { ok: boolean; category?: string }[] }> }[]
    return networks.flatMap(network => Object.values(network.mirrors)).filter(mirror => mirror.url.includes(`:${port}/`)).flatMap(mirror => mirror.recent)
  }
  return { ...result, dest, seconds: (Date.now() - started) / 1000, attempts, health }
}

/**
 * An sdist whose build backend sleeps `seconds` while preparing metadata: a tool busy without network. The backend
 * is in the tree and needs nothing (`requires = []`), so pip's build isolation fetches nothing from the index.
 */
function slowSdist(seconds: number): BuiltWheel {
  const root = 'slow_build-1.0'
  const backend = [
    'import os, time',
    'def get_requires_for_build_wheel(config_settings=None):',
    '    return []',
    'def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):',
    `    time.sleep(${seconds})`,
    "    name = 'slow_build-1.0.dist-info'",
    '    os.makedirs(os.path.join(metadata_directory, name), exist_ok=True)',
    "    with open(os.path.join(metadata_directory, name, 'METADATA'), 'w') as f:",
    "        f.write('Metadata-Version: 2.1\\nName: slow-build\\nVersion: 1.0\\n')",
    '    return name',
    '',
  ].join('\n')
  const bytes = gzippedTar({
    [`${root}/pyproject.toml`]: '[build-system]\nrequires = []\nbuild-backend = "slow_backend"\nbackend-path = ["."]\n',
    [`${root}/slow_backend.py`]: backend,
    [`${root}/PKG-INFO`]: 'Metadata-Version: 2.1\nName: slow-build\nVersion: 1.0\n' })
  return { name: 'slow-build', version: '1.0', filename: `${root}.tar.gz`, bytes, sha256: createHash('sha256').update(bytes).digest('hex') }
}

describeNeeding(procFs(canSampleTrees()), 'stall detection with real pip', () => {
  it('abandons a primary that trickles the wheel at 50 B/s and succeeds on the mirror', async () => {
    // 50 B/s arrives every 100 ms: pip's read timeout (15 s) never fires; only progress can tell.
    const wheels = [buildWheel('demo-pkg', '1.0', { paddingBytes: 40_000 })]
    const primary = await server({ wheels, fault: ({ isFile }) => isFile ? { kind: 'trickle', bytesPerSecond: 50 } : { kind: 'ok' } })
    const mirror = await server({ wheels })
    const stall = { minBytesPerSecond: 500, windowSeconds: 5 }
    const result = await download(projectWithConfig({ pypi: { index: primary.url, mirrors: [mirror.url] }, stall }), 'demo-pkg')
    expect(result.exitCode, result.all).toBe(0)
    expect(readFileSync(join(result.dest, wheels[0]!.filename)).equals(wheels[0]!.bytes)).toBe(true)
    const [stalled, recovered] = result.attempts()
    expect(stalled!.diagnosis).toMatchObject({ category: 'timeout', rule: 'resilient-stall' })
    // Stopped by resilient long before the trickle would have ended (13 minutes at 50 B/s); how soon after the window
    // is for a quiet machine (npm run bench), not for one the test shares.
    expect(stalled!.stoppedByResilient).toBe(true)
    expect(stalled!.durationMs).toBeLessThan(wheels[0]!.bytes.length / 50 * 1000 / 10)
    expect(stalled!.diagnosis!.summary).toMatch(new RegExp(`^stalled: \\d+ bytes in 5 s from 127\\.0\\.0\\.1:${primary.port}$`))
    expect(stalled!.throughput!.bytesPerSecond).toBeLessThan(stall.minBytesPerSecond)
    expect(recovered!.diagnosis).toBeNull()
    expect(recovered!.command.join(' ')).toContain(mirror.url)
    expect(result.stderr).toMatch(/attempt 1 failed .*timeout — stalled: \d+ bytes in 5 s/)
    expect(result.health(primary.port)).toMatchObject([{ ok: false, category: 'timeout' }])
    expect(result.health(mirror.port)).toMatchObject([{ ok: true }])
  })

  it('never interrupts a 3 MB wheel served steadily above the floor for longer than the window', async () => {
    const wheels = [buildWheel('big-pkg', '1.0', { paddingBytes: 3_000_000 })]
    const primary = await server({ wheels, fault: ({ isFile }) => isFile ? { kind: 'trickle', bytesPerSecond: 250_000 } : { kind: 'ok' } })
    const mirror = await server({ wheels })
    const stall = { minBytesPerSecond: 50_000, windowSeconds: 4 }
    const result = await download(projectWithConfig({ pypi: { index: primary.url, mirrors: [mirror.url] }, stall }), 'big-pkg')
    expect(result.exitCode, result.all).toBe(0)
    expect(result.seconds).toBeGreaterThan(12)
    expect(filesIn(result.dest)).toEqual([wheels[0]!.filename])
    const attempts = result.attempts()
    expect(attempts).toHaveLength(1)
    expect(mirror.requests).toEqual([])
    // Sampled once a second: the last second before the connection closes is not seen.
    expect(attempts[0]!.throughput!.bytes).toBeGreaterThan(2_500_000)
    expect(attempts[0]!.throughput!.counter).toBe('tcp')
    expect(result.stderr).toMatch(new RegExp(`↓ \\d+ kB/s over the last \\d+ s \\(\\d+(\\.\\d)? [kM]B in \\d+ s\\) from 127\\.0\\.0\\.1:${primary.port}`))
  })

  it('never interrupts a package whose build sleeps without network for longer than the window', async () => {
    const primary = await server({ wheels: [slowSdist(10)] })
    const mirror = await server({ wheels: [slowSdist(10)] })
    const stall = { minBytesPerSecond: 500, windowSeconds: 4 }
    const result = await download(projectWithConfig({ pypi: { index: primary.url, mirrors: [mirror.url] }, stall }), 'slow-build')
    expect(result.exitCode, result.all).toBe(0)
    expect(result.seconds).toBeGreaterThan(10)
    expect(filesIn(result.dest)).toEqual(['slow_build-1.0.tar.gz'])
    const attempts = result.attempts()
    expect(attempts).toHaveLength(1)
    expect(attempts[0]!.throughput!.bytes).toBeGreaterThan(0)
    expect(mirror.requests).toEqual([])
  })
})
