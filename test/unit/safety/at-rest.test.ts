import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { appendAutoInstallRecord, autoInstallRecordFile } from '../../../src/autoinstall/record.js'
import { editUserConfig } from '../../../src/config/user-config.js'
import { writeRunLog } from '../../../src/logs/store.js'
import { healthKey } from '../../../src/state/schema.js'
import { updateState } from '../../../src/state/store.js'
import { addOutcomes } from '../../../src/state/health.js'

// Nothing secret at rest, and every file resilient keeps is its owner's alone, whatever the umask.
const mode = (path: string) => (statSync(path).mode & 0o777).toString(8)
let umask: number | undefined

beforeEach(() => {
  // A permissive umask, as on a shared machine: resilient's own modes must not depend on it.
  try {
    umask = process.umask(0)
  } catch {
    umask = undefined
  }
})
afterEach(() => {
  if (umask !== undefined) process.umask(umask)
})

describe('state keys', () => {
  it.each([
    ['https://u:hunter2@pypi.corp.example/simple/', 'https://pypi.corp.example/simple'],
    ['https://conda.anaconda.org/t/ab-12345678-cdef/privchan', 'https://conda.anaconda.org/t/****/privchan'],
    ['https://pkgs.example/simple?api_token=s3cr3t#x', 'https://pkgs.example/simple'],
    ['https://pypi.fury.io/Tok3nValue99/acme/', 'https://pypi.fury.io/****/acme'],
  ])('%s is kept as %s', (url, key) => expect(healthKey(url)).toBe(key))

  it('state.json holds no token and is 0600 in a 0700 directory', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'state-')), 'resilient')
    const file = join(dir, 'state.json')
    await updateState(file, state => addOutcomes(state, { key: 'n', label: 'n' }, [{ url: 'https://conda.anaconda.org/t/ab-12345678-cdef/privchan', outcome: { at: 1, ok: false, via: 'run' } }]), () => {})
    expect(readFileSync(file, 'utf8')).not.toContain('ab-12345678-cdef')
    expect(mode(file)).toBe('600')
    expect(mode(dir)).toBe('700')
  })
})

describe('records and logs', () => {
  it('auto-installed.json keeps no script password, at 0600', async () => {
    const env = { RESILIENT_STATE_DIR: join(mkdtempSync(join(tmpdir(), 'state-')), 'resilient') }
    await appendAutoInstallRecord({ at: new Date().toISOString(), ecosystem: 'python', module: 'yaml', package: 'PyYAML', tier: 'allowlist', consent: 'yes-flag',
      environment: '/p/.venv/bin/python', command: 'pip install PyYAML', script: 'python app.py --db-password hunter2-long', cwd: '/p' }, env)
    const file = autoInstallRecordFile(env)
    expect(readFileSync(file, 'utf8')).not.toContain('hunter2-long')
    expect(mode(file)).toBe('600')
    expect(mode(env.RESILIENT_STATE_DIR)).toBe('700')
  })
  it('a run log is 0600 in a 0700 directory', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'logs-')), 'logs')
    const file = (await writeRunLog(dir, { logFormat: 1, resilientVersion: 't', startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:01.000Z', cwd: '/', invocation: ['pip'], tool: 'pip', exitCode: 0, durationMs: 1, outcome: 'ran-once', attempts: [], hint: null }, 5))!
    expect(mode(file)).toBe('600')
    expect(mode(dir)).toBe('700')
    expect(readdirSync(dir).filter(name => name.endsWith('.tmp'))).toEqual([])
  })
  it('the user config is 0600 in a 0700 directory', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'config-')), 'resilient')
    const file = join(dir, 'config.json')
    await editUserConfig(file, config => { config.maxAttempts = 3 })
    expect(mode(file)).toBe('600')
    expect(mode(dir)).toBe('700')
  })
})
