import { describe, expect, it } from 'vitest'
import { describeAttempts } from '../../../src/run/print-plan.js'
import { clockTime } from '../../../src/clock-time.js'
import { rankSources } from '../../../src/plan/rank.js'
import type { SourceHealth, StateSnapshot } from '../../../src/plan/types.js'
import { planOf } from '../retry/harness.js'

const snapshot = (health: Record<string, Partial<SourceHealth>>, learned: StateSnapshot['learned'] = []): StateSnapshot => ({
  healthOf: key => ({ verdict: { state: 'closed' }, consecutiveFailures: 0, ...health[key] }),
  learned,
  network: 'test network',
})
const ids = (plan: { attempts: { source: { id: string } }[] }) => plan.attempts.map(attempt => attempt.source.id)

describe('planRun', () => {
  it('gives every attempt its command, the hosts it contacts and its reason', () => {
    const plan = planOf('pip', 'install torch', { pypi: { mirrors: ['tuna'] } })
    expect(plan.attempts.map(attempt => [attempt.command.argv.join(' '), attempt.hosts.map(host => `${host.host} ${host.role}`), attempt.reason])).toEqual([
      ['pip install torch', ['pypi.org index', 'files.pythonhosted.org file-host'], "pip's default index (none chosen)"],
      ['pip install torch --index-url https://pypi.tuna.tsinghua.edu.cn/simple', ['pypi.tuna.tsinghua.edu.cn index'], 'from pypi.mirrors in the config'],
    ])
    // files.pythonhosted.org is where pypi.org sends downloads: booked under pypi.org.
    expect(new Set(plan.attempts[0]!.hosts.map(host => host.key))).toEqual(new Set(['https://pypi.org/simple']))
  })

  it('plans one untouched attempt for a command that does not use the network, and one offline attempt in offline mode', () => {
    expect(planOf('pip', 'list').attempts.map(attempt => attempt.command)).toEqual([{ argv: ['pip', 'list'], env: {} }])
    const offline = planOf('go', 'mod download', {}, { offline: { args: [], env: { GOPROXY: 'off' }, where: 'the Go module cache' } })
    expect(offline.attempts.map(attempt => [attempt.command, attempt.hosts])).toEqual([[{ argv: ['go', 'mod', 'download'], env: { GOPROXY: 'off' } }, []]])
    expect(offline.noSwitchReason).toBe('offline mode makes no network attempt')
  })

  it('is pure: the same request gives the same plan', () => {
    expect(JSON.stringify(planOf('npm', 'ci', { npm: { mirrors: ['tencent'] } }))).toBe(JSON.stringify(planOf('npm', 'ci', { npm: { mirrors: ['tencent'] } })))
  })

  it('describes each attempt for --dry-run with the hosts it will contact', () => {
    const plan = planOf('npm', 'ci', { maxAttempts: 2, npm: { index: 'https://npm.company.test/', mirrors: ['https://mirror.test/'] } },
      { locked: { file: '/project/package-lock.json', registries: [{ prefix: 'https://npm.company.test/', count: 2 }, { prefix: 'https://pkgs.private.test/', count: 1 }] } })
    expect(describeAttempts(plan)).toEqual([
      '# attempt 1 of 2 on npm.company.test — the index from the config (npm.index); contacts npm.company.test, pkgs.private.test (pinned in the lockfile)',
      '# attempt 2 of 2 on mirror mirror.test — from npm.mirrors in the config; contacts mirror.test, pkgs.private.test (pinned in the lockfile)',
    ])
    expect(plan.attempts[1]!.command.argv).toContain('--replace-registry-host=npm.company.test')
  })
})

describe('rankSources', () => {
  const plan = planOf('pip', 'install torch', { pypi: { mirrors: ['https://a.test/simple', 'https://b.test/simple', 'https://c.test/simple'] } })

  it('keeps the planned order when nothing is known, and returns a new plan', () => {
    const ranked = rankSources(plan, snapshot({}))
    expect(ids(ranked.plan)).toEqual(['upstream', 'a.test', 'b.test', 'c.test'])
    expect(ranked.plan).not.toBe(plan)
    expect(ranked.note).toBeUndefined()
  })

  it('tries healthy mirrors before those on trial, fewer failures first', () => {
    const ranked = rankSources(plan, snapshot({ 'https://a.test/simple': { consecutiveFailures: 2 }, 'https://b.test/simple': { verdict: { state: 'half-open' }, consecutiveFailures: 3 } }))
    expect(ids(ranked.plan)).toEqual(['upstream', 'c.test', 'a.test', 'b.test'])
  })

  it('when every source is failing, still tries them all, the least recently failed first', () => {
    const open = (lastFailureAt: number): Partial<SourceHealth> => ({ verdict: { state: 'open', reopensAt: lastFailureAt + 300_000 }, consecutiveFailures: 3, lastFailureAt })
    const ranked = rankSources(plan, snapshot({ 'https://pypi.org/simple': open(400), 'https://a.test/simple': open(300), 'https://b.test/simple': open(100), 'https://c.test/simple': open(200) }))
    expect(ids(ranked.plan)).toEqual(['b.test', 'c.test', 'a.test', 'upstream'])
    expect(ranked.note).toBe('every source is failing from this network (test network): trying them anyway, the least recently failed first')
  })

  it('announces a learned fix as "trying it first" only when attempt 1 uses it', () => {
    const learned = [{ category: 'timeout', failingHost: 'pypi.org', key: 'https://c.test/simple', sourceId: 'c' }]
    const kept = rankSources(plan, snapshot({}, learned))
    expect(ids(kept.plan)).toEqual(['upstream', 'c.test', 'a.test', 'b.test'])
    expect(kept.note).toBeUndefined()
    expect(kept.verbose).toBe('c fixed this last time (timeout on pypi.org): it comes right after pypi.org')
    const first = rankSources(plan, snapshot({ 'https://pypi.org/simple': { verdict: { state: 'open', reopensAt: 1 }, consecutiveFailures: 3, lastFailureAt: 1 } }, learned))
    expect(ids(first.plan)[0]).toBe('c.test')
    expect(first.note).toMatch(/c fixed this last time \(timeout on pypi\.org\): trying it first$/)
  })

  it('never moves a private index', () => {
    const own = planOf('pip', 'install torch', {}, { userIndex: { url: 'https://pypi.corp.test/simple', origin: '--index-url' } })
    const ranked = rankSources(own, snapshot({ 'https://pypi.corp.test/simple': { verdict: { state: 'open', reopensAt: 1 }, consecutiveFailures: 5 } }))
    expect(ids(ranked.plan)).toEqual(['primary'])
  })
})

describe('clockTime', () => {
  it('is 24-hour HH:MM whatever the locale', () => {
    const at = new Date(2026, 0, 2, 14, 5).getTime()
    expect(clockTime(at)).toBe('14:05')
    expect(clockTime(new Date(2026, 0, 2, 9, 7).getTime())).toBe('09:07')
  })
})
