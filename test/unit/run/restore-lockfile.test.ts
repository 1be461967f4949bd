import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { restoreLockfile } from '../../../src/run/restore-lockfile.js'
import type { Outcome, RunPlan, RunResult, Source } from '../../../src/plan/types.js'
import type { LockfileGuard } from '../../../src/tools/types.js'
import { planOf } from '../retry/harness.js'

const NPMJS = 'https://registry.npmjs.org/'
const upstream: Source = { id: 'upstream', url: undefined, kind: 'upstream', label: 'registry.npmjs.org', indexUrl: NPMJS }
const npmmirror: Source = { id: 'npmmirror', url: 'https://registry.npmmirror.com/', indexUrl: 'https://registry.npmmirror.com/', kind: 'mirror', label: 'mirror npmmirror' }
const tencent: Source = { id: 'tencent', url: 'https://mirrors.cloud.tencent.com/npm/', indexUrl: 'https://mirrors.cloud.tencent.com/npm/', kind: 'mirror', label: 'mirror tencent' }

function run(outcome: Outcome, ...sources: Source[]): RunResult {
  const attempts = sources.map((source, index) => ({ number: index + 1, source, command: { argv: ['npm', 'install'], env: {} }, hosts: [], exitCode: 0, durationMs: 1, diagnosis: null }))
  return { outcome, exitCode: outcome === 'succeeded' ? 0 : 1, durationMs: 1, attempts }
}
const planWith = (primary: Source): RunPlan => ({ ...planOf('npm', 'install'), primary })

/** Runs restoreLockfile with a guard that records what it was asked and restores `replaced` URLs. */
async function restore(result: RunResult, primary: Source, replaced = 3) {
  const calls: Parameters<LockfileGuard['restore']>[0][] = []
  const notes: string[] = []
  const warnings: string[] = []
  const guard: LockfileGuard = {
    async restore(context) {
      calls.push(context)
      if (replaced < 0) throw new Error('EACCES: permission denied')
      return replaced ? { file: join('/project', 'package-lock.json'), replaced } : undefined
    },
  }
  await restoreLockfile(guard, { result, plan: planWith(primary), cwd: '/project', note: m => notes.push(m), warn: m => warnings.push(m) })
  return { calls, notes, warnings }
}

describe('restoreLockfile', () => {
  it('restores what every mirror of the run wrote, and says so in one line', async () => {
    const { calls, notes } = await restore(run('succeeded', upstream, tencent, npmmirror), upstream)
    expect(calls).toEqual([{ mirrorUrls: [tencent.url, npmmirror.url], primaryUrl: NPMJS }])
    expect(notes).toEqual(['restored 3 registry URLs in package-lock.json: no mirror URL stays in it'])
  })

  it('restores to a configured index', async () => {
    const corp: Source = { id: 'upstream', url: 'https://npm.corp.example/', indexUrl: 'https://npm.corp.example/', kind: 'upstream', label: 'npm.corp.example' }
    const { calls, notes } = await restore(run('succeeded', corp, npmmirror), corp, 1)
    expect(calls).toEqual([{ mirrorUrls: [npmmirror.url], primaryUrl: 'https://npm.corp.example/' }])
    expect(notes).toEqual(['restored 1 registry URL in package-lock.json: no mirror URL stays in it'])
  })

  it('restores after a failed or interrupted run too: a mirror attempt may have written before it failed', async () => {
    for (const outcome of ['gave-up', 'interrupted'] as const) {
      const { calls } = await restore(run(outcome, upstream, npmmirror), upstream)
      expect(calls).toEqual([{ mirrorUrls: [npmmirror.url], primaryUrl: NPMJS }])
    }
  })

  it('does nothing when no mirror was used, or only the one the person chose', async () => {
    for (const [result, primary] of [
      [run('succeeded', upstream), upstream],
      // The person's own index is a catalog mirror: the URLs on it are what they chose.
      [run('succeeded', { ...npmmirror, id: 'index' }), { ...npmmirror, id: 'index' }],
      [run('succeeded', { ...npmmirror, id: 'primary', url: undefined }), { ...npmmirror, id: 'primary', url: undefined }],
    ] as [RunResult, Source][]) {
      const { calls, notes } = await restore(result, primary)
      expect(calls).toEqual([])
      expect(notes).toEqual([])
    }
  })

  it('restores a fallback mirror to the mirror the person chose', async () => {
    const chosen = { ...npmmirror, id: 'primary', url: undefined }
    const { calls } = await restore(run('succeeded', chosen, tencent), chosen)
    expect(calls).toEqual([{ mirrorUrls: [tencent.url], primaryUrl: npmmirror.indexUrl }])
  })

  it('says nothing when there was nothing to restore, and warns when the lockfile cannot be written', async () => {
    expect((await restore(run('succeeded', upstream, npmmirror), upstream, 0)).notes).toEqual([])
    const failed = await restore(run('succeeded', upstream, npmmirror), upstream, -1)
    expect(failed.warnings).toEqual(['could not restore the registry URLs the mirror wrote into the lockfile: EACCES: permission denied'])
  })
})
