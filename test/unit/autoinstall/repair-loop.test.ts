import { describe, expect, it } from 'vitest'
import type { Installable } from '../../../src/autoinstall/consent.js'
import { runAndRepair, type RepairDeps } from '../../../src/autoinstall/repair-loop.js'
import type { Candidate, Detection } from '../../../src/autoinstall/types.js'

// A scripted world: the script's outputs in order, a mapping, and a log of what the loop did.
function world(outputs: { exitCode: number; output: string }[], overrides: Partial<RepairDeps> = {}) {
  const log: string[] = []
  const said: string[] = []
  const runs = [...outputs]
  const deps: RepairDeps = {
    runScript: async () => {
      log.push('run')
      const next = runs.shift() ?? { exitCode: 99, output: 'script ran too often' }
      return { ...next, durationMs: 1 }
    },
    detect: (output): Detection | undefined => {
      const name = /missing (\S+)/.exec(output)?.[1]
      return name ? { kind: 'missing', module: { ecosystem: 'python', reported: name, name, evidence: [output], importer: /in (\S+)/.exec(output)?.[1] } } : undefined
    },
    choose: async (missing): Promise<Candidate> => missing.name === 'evil' ? { tier: 'refused', reason: 'a squat' } : { tier: missing.name === 'odd' ? 'proposed' : 'allowlist', package: `pkg-${missing.name}`, why: '', verifyModule: missing.name },
    plan: (candidate: Installable) => ({ argv: ['install', candidate.package], command: `install ${candidate.package}`, environment: '/v/python' }),
    consent: async () => ({ granted: true, how: 'yes-flag' }),
    install: async plan => { log.push(plan.command); return { ok: true } },
    verify: async () => ({ ok: true }),
    uninstall: async candidate => { log.push(`uninstall ${candidate.package}`) },
    record: async entry => { log.push(`record ${entry.package}`) },
    say: message => { said.push(message) },
    ...overrides,
  }
  return { deps, log, said }
}

const settings = { autoInstall: true, maxAutoInstalls: 3 }

describe('runAndRepair', () => {
  it('installs, records and runs again until the script succeeds', async () => {
    const { deps, log } = world([{ exitCode: 1, output: 'missing yaml' }, { exitCode: 1, output: 'missing cv2' }, { exitCode: 0, output: 'ok' }])
    const result = await runAndRepair(settings, deps)
    expect(log).toEqual(['run', 'install pkg-yaml', 'record pkg-yaml', 'run', 'install pkg-cv2', 'record pkg-cv2', 'run'])
    expect(result).toMatchObject({ exitCode: 0, runs: 3, stopReason: undefined })
    expect(result.autoInstalled.map(entry => entry.package)).toEqual(['pkg-yaml', 'pkg-cv2'])
  })

  it('passes the script\'s own exit code through when nothing is missing', async () => {
    const { deps, log } = world([{ exitCode: 7, output: 'KeyError' }])
    expect(await runAndRepair(settings, deps)).toMatchObject({ exitCode: 7, runs: 1, autoInstalled: [] })
    expect(log).toEqual(['run'])
  })

  it('runs once and installs nothing with auto-install off', async () => {
    const { deps, log } = world([{ exitCode: 1, output: 'missing yaml' }])
    expect(await runAndRepair({ ...settings, autoInstall: false }, deps)).toMatchObject({ exitCode: 1, runs: 1 })
    expect(log).toEqual(['run'])
  })

  it('stops at maxAutoInstalls', async () => {
    const { deps, log, said } = world([1, 2, 3].map(n => ({ exitCode: 1, output: `missing m${n}` })))
    const result = await runAndRepair({ ...settings, maxAutoInstalls: 2 }, deps)
    expect(log.filter(line => line.startsWith('install'))).toEqual(['install pkg-m1', 'install pkg-m2'])
    expect(result.stopReason).toMatch(/2 packages were installed already \(maxAutoInstalls\)/)
    expect(said.at(-1)).toMatch(/raise maxAutoInstalls/)
  })

  it('stops when the same import fails again after its install', async () => {
    const { deps, log } = world([{ exitCode: 1, output: 'missing yaml' }, { exitCode: 1, output: 'missing yaml' }])
    const result = await runAndRepair(settings, deps)
    expect(log.filter(line => line.startsWith('install'))).toEqual(['install pkg-yaml'])
    expect(result).toMatchObject({ exitCode: 1, runs: 2, stopReason: expect.stringMatching(/still cannot be imported after installing pkg-yaml/) })
  })

  it('tries each package once', async () => {
    const { deps, log } = world([{ exitCode: 1, output: 'missing a' }, { exitCode: 1, output: 'missing b' }], {
      choose: async () => ({ tier: 'allowlist', package: 'same', why: '', verifyModule: 'x' }),
    })
    expect((await runAndRepair(settings, deps)).stopReason).toMatch(/same was already installed in this run/)
    expect(log.filter(line => line.startsWith('install'))).toEqual(['install same'])
  })

  it('stops when the error moves into the package it just installed', async () => {
    const { deps } = world([{ exitCode: 1, output: 'missing pandas' }, { exitCode: 1, output: 'missing openpyxl in /v/lib/python3.11/site-packages/pandas/io.py' }])
    expect((await runAndRepair(settings, deps)).stopReason).toMatch(/pkg-pandas, just installed, needs "openpyxl"/)
  })

  it('installs nothing that is refused, declined, or fails', async () => {
    const refused = world([{ exitCode: 1, output: 'missing evil' }])
    expect((await runAndRepair(settings, refused.deps)).stopReason).toMatch(/will not install it: a squat/)
    expect(refused.log).toEqual(['run'])

    const declined = world([{ exitCode: 1, output: 'missing odd' }], { consent: async () => ({ granted: false, reason: 'you declined' }) })
    expect((await runAndRepair(settings, declined.deps)).stopReason).toMatch(/pkg-odd was not installed: you declined/)
    expect(declined.said.at(-1)).toMatch(/To install it yourself: install pkg-odd/)
    expect(declined.log).toEqual(['run'])

    const failing = world([{ exitCode: 1, output: 'missing yaml' }], { install: async () => ({ ok: false, reason: 'index down' }) })
    expect(await runAndRepair(settings, failing.deps)).toMatchObject({ exitCode: 1, autoInstalled: [], stopReason: 'Installing pkg-yaml failed: index down' })
  })

  it('uninstalls what does not provide the module', async () => {
    const { deps, log } = world([{ exitCode: 1, output: 'missing yaml' }], { verify: async () => ({ ok: false, detail: 'it comes from other' }) })
    const result = await runAndRepair(settings, deps)
    expect(log).toEqual(['run', 'install pkg-yaml', 'uninstall pkg-yaml'])
    expect(result.stopReason).toMatch(/"yaml" still does not come from it \(it comes from other\); it was uninstalled/)
  })

  it('never retries after an interrupt', async () => {
    const { deps, log } = world([{ exitCode: 130, output: 'missing yaml' }], {})
    deps.runScript = async () => { log.push('run'); return { exitCode: 130, output: 'missing yaml', durationMs: 1, interrupted: 'SIGINT' } }
    expect((await runAndRepair(settings, deps)).exitCode).toBe(130)
    expect(log).toEqual(['run'])
  })
})
