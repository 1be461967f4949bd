import { describe, expect, it } from 'vitest'
import { checkToolSettings } from '../../../src/doctor/tool-settings.js'

describe('doctor: tool settings from the environment', () => {
  it('lists the variables that change what the tools do, with what each means', () => {
    const section = checkToolSettings({ PIP_FIND_LINKS: '/opt/wheels', REQUESTS_CA_BUNDLE: '/etc/ssl/ca.pem', HOME: '/root' })
    expect(section.lines).toEqual([
      'PIP_FIND_LINKS=/opt/wheels: extra package sources for pip, on every command: kept as they are (mirrors replace only the main index)',
      'REQUESTS_CA_BUNDLE=/etc/ssl/ca.pem: a CA bundle read by Python tools and curl: a TLS verification error may come from this bundle, not from the index',
    ])
    expect(section.problems).toEqual([])
  })

  it('warns when a long pip timeout defeats fast detection', () => {
    const section = checkToolSettings({ PIP_DEFAULT_TIMEOUT: '180' })
    expect(section.problems).toEqual([expect.objectContaining({ severity: 'warning', message: expect.stringMatching(/180 s per try/) })])
    expect(checkToolSettings({ PIP_DEFAULT_TIMEOUT: '10' }).problems).toEqual([])
  })

  it('never shows a credential in an index URL', () => {
    const section = checkToolSettings({ PIP_INDEX_URL: 'https://bob:hunter22@pypi.corp.example/simple' })
    expect(section.lines.join('\n')).not.toContain('hunter22')
  })

  it('says so when nothing is set', () => expect(checkToolSettings({}).lines[0]).toMatch(/^none of the variables/))
})
