import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { restoreLockfile } from '../../../src/cli/restore-lockfile.js'
import type { Outcome, RunResult, Source, SourcePlan } from '../../../src/retry/types.js'
import type { LockfileGuard } from '../../../src/tools/types.js'

const NPMJS = 'https://registry.npmjs.org/'
const upstream: Source = { id: 'upstream', url: undefined, kind: 'upstream', label: 'registry.npmjs.org', indexUrl: NPMJS }
const npmmirror: Source = { id: 'npmmirror', url: 'https://registry.npmmirror.com/', indexUrl: 'https://registry.npmmirror.com/', kind: 'mirror', label: 'mirror npmmirror' }
const tencent: Source = { id: 'tencent', url: 'https://mirrors.cloud.tencent.com/npm/', indexUrl: 'https://mirrors.cloud.tencent.com/npm/', kind: 'mirror', label: 'mirror tencent' }

function run(outcome: Outcome, ...sources: Source[]): RunResult {
  const attempts = sources.map((source, index) => ({ number: index + 1, source, command: { argv: ['npm', 'install'], env: {} }, exitCode: 0, durationMs: 1, diagnosis: null }))
  return { outcome, exitCode: outcome === 'succeeded' ? 0 : 1, durationMs: 1, attempts }
}

/** Runs restoreLockfile with a guard that records what it was asked and restores `replaced` URLs. */
async function restore(result: RunResult, plan: SourcePlan, replaced = 3) {
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
  await restoreLockfile(guard, { result, plan, defaultIndex: NPMJS, cwd: '/project', note: m => notes.push(m), warn: m => warnings.push(m) })
  return { calls, notes, warnings }
}

describe('restoreLockfile', () => {
  it('points the URLs of every mirror the run used back at the primary, and says so in one line', async () => {
    const { calls, notes } = await restore(run('succeeded', upstream, tencent, npmmirror), { primary: upstream, fallbacks: [tencent, npmmirror] })
    expect(calls).toEqual([{ mirrorUrls: [tencent.url, npmmirror.url], primaryUrl: NPMJS }])
    expect(notes).toEqual([`restored 3 registry URLs in package-lock.json to ${NPMJS}`])
  })

  it('restores to a configured index', async () => {
    const corp: Source = { id: 'upstream', url: 'https://npm.corp.example/', indexUrl: 'https://npm.corp.example/', kind: 'upstream', label: 'npm.corp.example' }
    const { calls, notes } = await restore(run('succeeded', corp, npmmirror), { primary: corp, fallbacks: [npmmirror] }, 1)
    expect(calls).toEqual([{ mirrorUrls: [npmmirror.url], primaryUrl: 'https://npm.corp.example/' }])
    expect(notes).toEqual(['restored 1 registry URL in package-lock.json to https://npm.corp.example/'])
  })

  it('does nothing unless the run succeeded on a mirror', async () => {
    for (const [result, plan] of [
      [run('gave-up', upstream, npmmirror), { primary: upstream, fallbacks: [npmmirror] }],
      [run('succeeded', upstream), { primary: upstream, fallbacks: [npmmirror] }],
      // The person's own index is a catalog mirror: the URLs on it are what they chose.
      [run('succeeded', { ...npmmirror, id: 'index' }), { primary: { ...npmmirror, id: 'index' }, fallbacks: [tencent] }],
      [run('succeeded', { ...npmmirror, id: 'primary', url: undefined }), { primary: { ...npmmirror, id: 'primary', url: undefined }, fallbacks: [tencent] }],
    ] as [RunResult, SourcePlan][]) {
      const { calls, notes } = await restore(result, plan)
      expect(calls).toEqual([])
      expect(notes).toEqual([])
    }
  })

  it('restores a fallback mirror to the mirror the person chose', async () => {
    const chosen = { ...npmmirror, id: 'primary', url: undefined }
    const { calls } = await restore(run('succeeded', chosen, tencent), { primary: chosen, fallbacks: [tencent] })
    expect(calls).toEqual([{ mirrorUrls: [tencent.url], primaryUrl: npmmirror.indexUrl }])
  })

  it('says nothing when there was nothing to restore, and warns when the lockfile cannot be written', async () => {
    const plan = { primary: upstream, fallbacks: [npmmirror] }
    expect((await restore(run('succeeded', upstream, npmmirror), plan, 0)).notes).toEqual([])
    const failed = await restore(run('succeeded', upstream, npmmirror), plan, -1)
    expect(failed.warnings).toEqual(['could not restore the registry URLs the mirror wrote into the lockfile: EACCES: permission denied'])
  })
})
