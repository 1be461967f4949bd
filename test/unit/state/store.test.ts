import { build } from 'esbuild'
import { execa } from 'execa'
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { addOutcomes } from '../../../src/state/health.js'
import { stateDir } from '../../../src/paths.js'
import { emptyState, stateSchema } from '../../../src/state/schema.js'
import { readState, updateState } from '../../../src/state/store.js'
import { isolatedEnv } from '../../helpers/isolated-env.js'

const network = { key: 'net', label: 'test network' }
const mirrorUrl = 'https://mirror.test/simple'
const fresh = () => join(mkdtempSync(join(tmpdir(), 'resilient-state-')), 'state.json')
const record = (file: string, ok: boolean, warn = (_: string) => {}) =>
  updateState(file, state => addOutcomes(state, network, [{ url: mirrorUrl, outcome: { at: Date.now(), ok, via: 'run' } }]), warn)

describe('state store', () => {
  it('starts empty when there is no file yet, and round-trips what it writes', async () => {
    const file = fresh()
    expect(await readState(file, () => {})).toEqual(emptyState())
    await record(file, false)
    const state = await readState(file, () => {})
    expect(state.networks.net!.mirrors[mirrorUrl]).toMatchObject({ failures: 1, consecutiveFailures: 1 })
    expect(stateSchema.safeParse(JSON.parse(readFileSync(file, 'utf8'))).success).toBe(true)
  })

  it.each([['not JSON', '{"version": 1, "networ'], ['the wrong shape', '{"version": 7, "networks": []}']])('sets aside a file that is %s, with a warning, and goes on', async (_, content) => {
    const file = fresh()
    writeFileSync(file, content)
    const warnings: string[] = []
    expect(await readState(file, message => warnings.push(message))).toEqual(emptyState())
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/could not be read .* set aside as .*state\.json\.corrupt-\d+/)
    const aside = readdirSync(join(file, '..')).filter(name => name.startsWith('state.json.corrupt-'))
    expect(aside).toHaveLength(1)
    expect(readFileSync(join(file, '..', aside[0]!), 'utf8')).toBe(content)
    await record(file, true)
    expect((await readState(file, () => {})).networks.net!.mirrors[mirrorUrl]!.successes).toBe(1)
  })

  it('sets aside a corrupt file found during an update, and records the update', async () => {
    const file = fresh()
    writeFileSync(file, '\u0000\u0000garbage')
    const warnings: string[] = []
    await record(file, true, message => warnings.push(message))
    expect(warnings[0]).toMatch(/set aside/)
    expect((await readState(file, () => {})).networks.net!.mirrors[mirrorUrl]!.successes).toBe(1)
  })

  it('loses no update when many run at once in one process', async () => {
    const file = fresh()
    await Promise.all(Array.from({ length: 40 }, (_, i) => record(file, i % 2 === 0)))
    const health = (await readState(file, () => {})).networks.net!.mirrors[mirrorUrl]!
    expect(health.successes + health.failures).toBe(40)
    expect(health.successes).toBe(20)
  })

  it('loses no update and stays valid when 20 processes write at once', async () => {
    const file = fresh()
    // Bundled once, so that 20 processes start as fast as the CLI does (tsx would transpile in each of them).
    // Packages stay external: the bundle lives under node_modules/.cache so that it resolves them from this checkout.
    const worker = fileURLToPath(new URL(`../../../node_modules/.cache/resilient-test/record-worker-${process.pid}.mjs`, import.meta.url))
    await build({ entryPoints: [fileURLToPath(new URL('./record-worker.ts', import.meta.url))], bundle: true, packages: 'external', platform: 'node', format: 'esm', outfile: worker, logLevel: 'error' })
    const env = isolatedEnv()
    const runs = await Promise.all(Array.from({ length: 20 }, (_, id) => execa('node', [worker, file, String(id), '3'], { env, extendEnv: false, reject: false })))
    for (const run of runs) expect(run.exitCode, run.stderr).toBe(0)
    expect(runs.map(run => run.stderr).join('')).toBe('')
    const state = stateSchema.parse(JSON.parse(readFileSync(file, 'utf8')))
    const health = state.networks.net!.mirrors[mirrorUrl]!
    expect(health.successes).toBe(40)
    expect(health.failures).toBe(20)
    expect(Object.keys(state.fixes)).toHaveLength(20)
    expect(Object.values(state.fixes).every(fix => fix.count === 3)).toBe(true)
    expect(readdirSync(join(file, '..')).filter(name => name !== 'state.json')).toEqual([])
  }, 90_000)
})

describe('stateDir', () => {
  it('honours RESILIENT_STATE_DIR, then XDG_STATE_HOME', () => {
    expect(stateDir({ RESILIENT_STATE_DIR: '/x/state', XDG_STATE_HOME: '/y' })).toBe('/x/state')
    expect(stateDir({ XDG_STATE_HOME: '/y' })).toBe('/y/resilient')
  })

  it('is inside the temporary HOME in tests, never the real one', () => {
    expect(stateDir(process.env).startsWith(process.env.HOME!)).toBe(true)
    expect(existsSync(process.env.HOME!)).toBe(true)
  })
})

describe('state size', () => {
  it('keeps the most recently used mirrors of a network, so short-lived local servers do not pile up', async () => {
    const file = fresh()
    await updateState(file, state => addOutcomes(state, network, Array.from({ length: 130 }, (_, i) => ({ url: `http://127.0.0.1:${1000 + i}/simple`, outcome: { at: i, ok: true, via: 'run' as const } }))), () => {})
    const mirrors = Object.keys((await readState(file, () => {})).networks.net!.mirrors)
    expect(mirrors).toHaveLength(100)
    expect(mirrors).toContain('http://127.0.0.1:1129/simple')
    expect(mirrors).not.toContain('http://127.0.0.1:1000/simple')
  })
})
