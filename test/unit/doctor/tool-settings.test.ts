import { describe, expect, it } from 'vitest'
import { checkToolSettings } from '../../../src/doctor/tool-settings.js'
import { TOOLS } from '../../../src/tools/index.js'

describe('doctor: tool settings from the environment', () => {
  it('lists the variables that change what the tools do, with what each means', () => {
    const section = checkToolSettings({ PIP_FIND_LINKS: '/opt/wheels', REQUESTS_CA_BUNDLE: '/etc/ssl/ca.pem', HOME: '/root' })
    expect(section.lines).toEqual([
      'PIP_FIND_LINKS=/opt/wheels (pip): extra package sources for pip, on every command: kept as they are (mirrors replace only the main index)',
      'REQUESTS_CA_BUNDLE=/etc/ssl/ca.pem: a CA bundle read by Python tools and curl: a TLS verification error may come from this bundle, not from the index',
    ])
    expect(section.problems).toEqual([])
  })

  it('warns when a long pip timeout keeps resilient waiting on a dead index', () => {
    const section = checkToolSettings({ PIP_DEFAULT_TIMEOUT: '180' })
    expect(section.problems).toEqual([expect.objectContaining({ severity: 'warning', message: expect.stringMatching(/180 s per try/) })])
    expect(checkToolSettings({ PIP_DEFAULT_TIMEOUT: '10' }).problems).toEqual([])
  })

  it('never shows a credential in an index URL', () => {
    const section = checkToolSettings({ PIP_INDEX_URL: 'https://bob:hunter22@pypi.corp.example/simple' })
    expect(section.lines.join('\n')).not.toContain('hunter22')
  })

  it('says so when nothing is set', () => expect(checkToolSettings({}).lines[0]).toMatch(/^none of the variables/))

  it('takes what each variable means from the adapters, naming every tool that reads it', () => {
    expect(checkToolSettings({ npm_config_registry: 'https://r.example/' }).lines).toEqual(['npm_config_registry=https://r.example/ (npm, pnpm, yarn, bun): a registry choice for npm'])
    expect(checkToolSettings({ CONDA_CHANNELS: 'conda-forge' }).lines[0]).toMatch(/^CONDA_CHANNELS=conda-forge \(conda, mamba, micromamba\): /)
    for (const adapter of Object.values(TOOLS)) {
      for (const setting of 'environment' in adapter ? adapter.environment : []) {
        for (const name of setting.names) expect(checkToolSettings({ [name]: '1' }).lines[0], name).toMatch(new RegExp(`^${name}=1 \\(.*\\b${adapter.name}\\b`))
      }
    }
  })
})
