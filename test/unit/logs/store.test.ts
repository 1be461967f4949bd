import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { formatLogDetails, formatLogTable } from '../../../src/logs/format.js'
import { logsDirectory } from '../../../src/paths.js'
import { createRunLog, type RunReport } from '../../../src/logs/run-log.js'
import { readRunLogs, rotateRunLogs, writeRunLog } from '../../../src/logs/store.js'

const report = (overrides: Partial<RunReport> = {}): RunReport => ({
  tool: 'pip', exitCode: 0, durationMs: 4200, outcome: 'succeeded', hint: null,
  attempts: [
    { command: ['pip', 'install', 'torch'], source: 'pypi.org', exitCode: 1, durationMs: 3000, diagnosis: { category: 'timeout', summary: 'pypi.org did not answer', evidence: ['Read timed out.'], rule: 'any-timeout' } },
    { command: ['pip', 'install', 'torch', '--index-url', 'https://mirror.test/simple'], source: 'mirror tuna', exitCode: 0, durationMs: 1200, diagnosis: null },
  ],
  ...overrides,
})

const log = (startedAt: string, overrides: Partial<RunReport> = {}) => createRunLog({
  report: report(overrides), invocation: ['pip', 'install', 'torch'], startedAt: new Date(startedAt), finishedAt: new Date(Date.parse(startedAt) + 4200), cwd: '/work/project', resilientVersion: '9.9.9',
})

const tempDir = () => mkdtempSync(join(tmpdir(), 'resilient-logs-'))

describe('run logs', () => {
  it('live under the state directory, which RESILIENT_STATE_DIR overrides', () => {
    expect(logsDirectory({ RESILIENT_STATE_DIR: '/s', XDG_STATE_HOME: '/x' })).toBe('/s/logs')
    expect(logsDirectory({ XDG_STATE_HOME: '/x' })).toBe('/x/resilient/logs')
  })

  it('carry the report, timestamps, cwd and version, with secrets masked', () => {
    const entry = createRunLog({
      report: report({ attempts: [{ command: ['pip', '-i', 'https://bob:pa55word@corp.test/simple', 'install', 'x'], source: 'your index', exitCode: 0, durationMs: 1, diagnosis: null }] }),
      invocation: ['pip', 'install', '--password', 'hunter22', 'x'], startedAt: new Date('2026-01-02T03:04:05.678Z'), finishedAt: new Date('2026-01-02T03:04:09Z'), cwd: '/p', resilientVersion: '1.2.3',
    })
    expect(entry).toMatchObject({ logFormat: 1, resilientVersion: '1.2.3', startedAt: '2026-01-02T03:04:05.678Z', finishedAt: '2026-01-02T03:04:09.000Z', cwd: '/p', tool: 'pip' })
    expect(JSON.stringify(entry)).not.toMatch(/pa55word|hunter22/)
    expect(entry.invocation).toEqual(['pip', 'install', '--password', '****', 'x'])
  })

  it('are written privately and read back newest first', async () => {
    const dir = join(tempDir(), 'logs')
    const older = (await writeRunLog(dir, log('2026-01-01T10:00:00Z'), 10, 1))!
    const newer = (await writeRunLog(dir, log('2026-01-01T11:00:00Z', { outcome: 'gave-up', exitCode: 1 }), 10, 2))!
    expect(statSync(newer).mode & 0o777).toBe(0o600)
    const { logs, skipped } = readRunLogs(dir)
    expect(logs.map(entry => entry.file)).toEqual([newer, older])
    expect(logs[0]!.log.outcome).toBe('gave-up')
    expect(skipped).toBe(0)
  })

  it('keep only the newest N', async () => {
    const dir = tempDir()
    for (let hour = 10; hour < 16; hour++) await writeRunLog(dir, log(`2026-01-01T${hour}:00:00Z`), 3, hour)
    const names = readdirSync(dir).sort()
    expect(names).toHaveLength(3)
    expect(names[0]).toMatch(/^2026-01-01T13-00-00-000Z-pip-13\.json$/)
  })

  it('write nothing when keep is 0', async () => {
    const dir = join(tempDir(), 'logs')
    expect(await writeRunLog(dir, log('2026-01-01T10:00:00Z'), 0)).toBeUndefined()
    expect(readRunLogs(dir).logs).toEqual([])
  })

  it('skip files that are not run logs, and leave other files alone when rotating', async () => {
    const dir = tempDir()
    await writeRunLog(dir, log('2026-01-01T10:00:00Z'), 5, 1)
    writeFileSync(join(dir, '2026-01-01T12-00-00-000Z-pip-9.json'), '{ broken')
    writeFileSync(join(dir, 'notes.txt'), 'mine')
    const { logs, skipped } = readRunLogs(dir)
    expect(logs).toHaveLength(1)
    expect(skipped).toBe(1)
    expect(rotateRunLogs(dir, 1)).toHaveLength(1)
    expect(readdirSync(dir)).toContain('notes.txt')
  })
})

describe('log formatting', () => {
  it('summarises a run on one line', () => {
    const [line] = formatLogTable([log('2026-01-01T10:00:00Z')])
    expect(line).toMatch(/recovered in 2 attempts \(on mirror tuna\) {2}exit 0 {2}4\.2 s {2}pip install torch$/)
  })

  it('lines up the columns of runs whose outcomes, exit codes and durations differ in length', () => {
    const long = log('2026-01-01T10:00:00Z', { attempts: [report().attempts[0]!, { ...report().attempts[1]!, source: 'mirror 127.0.0.1:43253 (your own mirror)' }] })
    const lines = formatLogTable([long, log('2026-01-01T11:00:00Z', { outcome: 'ran-once', exitCode: 127, durationMs: 65_000, attempts: [] }), log('2026-01-01T12:00:00Z')])
    const columnOf = (pattern: RegExp) => lines.map(line => pattern.exec(line)?.index)
    expect(columnOf(/exit \d/)).toEqual(Array(3).fill(columnOf(/exit \d/)[0]))
    expect(columnOf(/pip install torch$/)).toEqual(Array(3).fill(columnOf(/pip install torch$/)[0]))
    // Durations are right-aligned: they end in the same column.
    expect(lines.map(line => / s {2}pip/.exec(line)?.index)).toEqual(Array(3).fill(/ s {2}pip/.exec(lines[0]!)?.index))
    expect(lines[1]).toMatch(/failed \(not retried\) +exit 127 +65 s {2}pip install torch$/)
  })
  it('shows every attempt with its diagnosis', () => {
    const text = formatLogDetails(log('2026-01-01T10:00:00Z', { outcome: 'gave-up', exitCode: 1, hint: 'Check the network.' }), '/l/x.json')
    expect(text).toContain('attempt 1 on pypi.org: exit 1 after 3.0 s')
    expect(text).toContain('$ pip install torch --index-url https://mirror.test/simple')
    expect(text).toContain('timeout: pypi.org did not answer [any-timeout]')
    expect(text).toContain('│ Read timed out.')
    expect(text).toContain('gave up after 2 attempts: failed')
    expect(text).toContain('→ what to do: Check the network.')
  })
})
