import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { appendAutoInstallRecord, autoInstallRecordFile, readAutoInstallRecord, type AutoInstallEntry } from '../../../src/autoinstall/record.js'
import { isolatedEnv } from '../../helpers/isolated-env.js'

const entry = (name: string): AutoInstallEntry => ({
  at: '2026-01-01T00:00:00.000Z', ecosystem: 'python', module: name, package: `pkg-${name}`, tier: 'allowlist', consent: 'yes-flag',
  environment: '/v/bin/python', command: `/v/bin/python -m pip install pkg-${name}`, script: 'python app.py', cwd: '/p',
})

describe('the auto-install record', () => {
  it('lives in the state directory', () => {
    expect(autoInstallRecordFile({ RESILIENT_STATE_DIR: '/s' })).toBe('/s/auto-installed.json')
    expect(autoInstallRecordFile({ XDG_STATE_HOME: '/x' })).toBe('/x/resilient/auto-installed.json')
  })

  it('appends entries that readAutoInstallRecord returns in order', async () => {
    const env = isolatedEnv()
    expect(await readAutoInstallRecord(env)).toEqual({ file: autoInstallRecordFile(env), entries: [] })
    await appendAutoInstallRecord(entry('a'), env)
    await Promise.all([appendAutoInstallRecord(entry('b'), env), appendAutoInstallRecord(entry('c'), env)])
    const { entries } = await readAutoInstallRecord(env)
    expect(entries.map(e => e.module).sort()).toEqual(['a', 'b', 'c'])
    expect(entries[0]!.module).toBe('a')
    expect(JSON.parse(readFileSync(autoInstallRecordFile(env), 'utf8')).version).toBe(1)
  })

  it('reads an unreadable file as no entries plus the reason, and starts it afresh on the next write', async () => {
    const env = isolatedEnv()
    const file = autoInstallRecordFile(env)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, '{ not json')
    expect(await readAutoInstallRecord(env)).toMatchObject({ entries: [], error: expect.stringMatching(/not JSON/) })
    const warnings: string[] = []
    await appendAutoInstallRecord(entry('d'), env, w => warnings.push(w))
    expect(warnings.join()).toMatch(/started afresh/)
    expect((await readAutoInstallRecord(env)).entries.map(e => e.module)).toEqual(['d'])
    expect(join(env.RESILIENT_STATE_DIR!, 'auto-installed.json')).toBe(file)
  })
})
