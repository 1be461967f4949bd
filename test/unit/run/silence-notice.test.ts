import { describe, expect, it } from 'vitest'
import { describeSilence } from '../../../src/run/silence-notice.js'
import { npmPatience } from '../../../src/tools/relay/npm-relay.js'
import { pipPatience } from '../../../src/tools/source/pip-patience.js'

const context = (args: string, env: NodeJS.ProcessEnv = {}) => ({ args: args.split(' '), env: { PIP_CONFIG_FILE: '/dev/null', ...env }, cwd: '/', home: '/nonexistent' })

describe('why the run waits, in one line', () => {
  it('pip\'s own settings as it reads them: defaults, the command line, its variables', () => {
    expect(pipPatience(context('install x'))).toEqual({ timeoutMs: 15_000, tries: 6, betweenTriesMs: 0, settings: '--timeout 15, --retries 5' })
    expect(pipPatience(context('install --timeout 60 --retries 1 x'))).toMatchObject({ timeoutMs: 60_000, tries: 2, settings: '--timeout 60, --retries 1' })
    expect(pipPatience(context('install x', { PIP_DEFAULT_TIMEOUT: '30' }))).toMatchObject({ timeoutMs: 30_000, settings: 'PIP_DEFAULT_TIMEOUT 30, --retries 5' })
  })

  it('npm\'s: five minutes a request, two retries after 10 s and 60 s', () => {
    expect(npmPatience({ args: ['install'], env: {}, cwd: '/', home: '/nonexistent' })).toEqual({ timeoutMs: 300_000, tries: 3, betweenTriesMs: 70_000, settings: 'fetch-timeout 300000, fetch-retries 2' })
  })

  it('names the silent host, the tool\'s own budget, and what comes next', () => {
    const patience = pipPatience(context('install x'))
    expect(describeSilence({ host: 'pypi.org', tool: 'pip', silentMs: 15_200, patience, then: { kind: 'none' } }))
      .toBe('pypi.org has sent nothing for 15 s; pip keeps waiting by its own settings (--timeout 15, --retries 5: up to about 1.5 min in all); nothing else is planned: a mirror would help (`resilient mirrors list`, `--mirror <name>`), or check the network or proxy (`resilient mirrors test`)')
    expect(describeSilence({ host: 'pypi.corp.example', tool: 'pip', silentMs: 16_000, then: { kind: 'own' } })).toMatch(/pip keeps waiting by its own settings; your index is never replaced/)
    expect(describeSilence({ host: 'pypi.org', tool: 'pip', silentMs: 15_000, patience, then: { kind: 'next', source: 'mirror tuna' } })).toMatch(/; when it gives up, resilient tries mirror tuna$/)
  })
})
