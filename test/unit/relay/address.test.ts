import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { relayPort, relaySecret } from '../../../src/relay/address.js'

const stateDir = () => mkdtempSync(join(tmpdir(), 'resilient-relay-state-'))

describe('the relay\'s address across runs', () => {
  it('keeps one port per user, chosen once, in a file only the user can read', () => {
    const dir = stateDir()
    const port = relayPort({ RESILIENT_STATE_DIR: dir })
    expect(port).toBeGreaterThanOrEqual(20_000)
    expect(port).toBeLessThan(32_000)
    expect(relayPort({ RESILIENT_STATE_DIR: dir })).toBe(port)
    expect(statSync(join(dir, 'relay.json')).mode & 0o777).toBe(0o600)
    expect(JSON.parse(readFileSync(join(dir, 'relay.json'), 'utf8'))).toEqual({ port })
  })

  it('replaces a file others could write or that holds no port', () => {
    const dir = stateDir()
    writeFileSync(join(dir, 'relay.json'), '{"port": 21000}')
    chmodSync(join(dir, 'relay.json'), 0o666)
    expect(relayPort({ RESILIENT_STATE_DIR: dir })).not.toBe(21_000)
    writeFileSync(join(dir, 'relay.json'), 'not json', { mode: 0o600 })
    chmodSync(join(dir, 'relay.json'), 0o600)
    expect(relayPort({ RESILIENT_STATE_DIR: dir })).toBeGreaterThanOrEqual(20_000)
  })

  it('falls back to any free port (0) where the state directory cannot be used', () => {
    const file = join(stateDir(), 'a-file')
    writeFileSync(file, '')
    expect(relayPort({ RESILIENT_STATE_DIR: join(file, 'resilient') })).toBe(0)
  })

  it('makes a new secret for every run', () => {
    expect(relaySecret()).not.toBe(relaySecret())
    expect(relaySecret()).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })
})
