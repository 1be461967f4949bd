import { describe, expect, it } from 'vitest'
import { checkToolSettings } from '../../../src/doctor/tool-settings.js'
import { TOOLS } from '../../../src/tools/index.js'
import { findUserKnobs } from '../../../src/tools/knobs.js'
import { configSchema } from '../../../src/config/schema.js'
import { planAttempt } from '../../../src/plan/attempt.js'
import type { ToolAdapter } from '../../../src/tools/types.js'
import { contextIn, folderWith } from '../../helpers/tool-cases.js'

const adapters = Object.values(TOOLS) as ToolAdapter[]
const withKnobs = adapters.filter(adapter => adapter.knobs)

describe('timeout and retry knobs as adapter data', () => {
  it('every tool with a timeout or retry of its own declares it (go and bun have none to shorten)', () =>
    expect(adapters.filter(adapter => !adapter.knobs).map(adapter => adapter.name).sort()).toEqual(['bun', 'go']))

  it.each(withKnobs.map(adapter => [adapter.name, adapter] as const))('%s: each declared variable counts as the person\'s setting', (_, adapter) => {
    const project = folderWith({})
    expect(findUserKnobs(adapter, contextIn(project, 'install x'))).toEqual({ userSet: false })
    for (const name of adapter.knobs!.env) expect(findUserKnobs(adapter, contextIn(project, 'install x', { [name]: '60' })), name).toEqual({ userSet: true, origin: name })
  })

  it.each(adapters.map(adapter => [adapter.name, adapter] as const))('%s: an attempt on the index as typed runs the command exactly as typed, its knobs untouched', (_, adapter) => {
    const base = { argv: [adapter.name, 'install', 'x'], env: {} }
    const source = { id: 'upstream', url: undefined, kind: 'upstream' as const, label: 'the index' }
    const { command } = planAttempt({ adapter, config: configSchema.parse({}), cwd: '/', base, replaceable: () => false }, { source, reason: 'test' })
    expect(command).toEqual(base)
  })

  it('finds a setting in the tool\'s config files through the same data', () => {
    const project = folderWith({ '.condarc': 'remote_max_retries: 9\n' })
    expect(findUserKnobs(TOOLS.conda, contextIn(project, 'install x', { CONDARC: `${project}/.condarc` })).origin).toBe(`${project}/.condarc remote_max_retries`)
    expect(findUserKnobs(TOOLS.pip, contextIn(project, 'install --isolated x')).userSet).toBe(false)
  })

  it('doctor explains every declared knob variable, naming the tools that read it', () => {
    for (const adapter of withKnobs) {
      for (const name of adapter.knobs!.env) expect(checkToolSettings({ [name]: '60' }).lines[0], name).toMatch(new RegExp(`^${name}=60 \\(.*\\b${adapter.name}\\b`))
    }
    expect(checkToolSettings({ CARGO_NET_RETRY: '9' }).lines).toEqual(["CARGO_NET_RETRY=9 (cargo): cargo's own timeout/retries: kept, and while one is set resilient leaves an index only when cargo does"])
  })

  it('every adapter that reads config files for its knobs names them for people', () => {
    for (const adapter of withKnobs.filter(adapter => adapter.knobs!.settings?.length)) expect(adapter.configFiles?.names.length, adapter.name).toBeGreaterThan(0)
  })
})
