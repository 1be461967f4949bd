import { findUserKnobs } from '../../../src/tools/knobs.js'
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { configSchema } from '../../../src/config/schema.js'
import { formatCommand } from '../../../src/tools/argv/format-command.js'
import { buildCommand } from '../../helpers/plan-helpers.js'
import { TOOLS } from '../../../src/tools/index.js'
import { parseInvocation } from '../../../src/tools/parse-invocation.js'

const pip = TOOLS.pip
const MIRROR = { id: 'm', url: 'https://mirror.test/simple', kind: 'mirror' as const, label: 'mirror m' }
const config = configSchema.parse({})

// One line per case, like ni's tests.
const _ = (args: string, expected: string) => () => {
  const invocation = { tool: 'pip' as const, adapter: pip, launcher: ['pip'], args: args.split(' '), executable: '/bin/pip' }
  expect(formatCommand(buildCommand({ invocation, config, userKnobs: true }, MIRROR, false))).toBe(expected)
}

describe('pip: rewriting', () => {
  it('adds the mirror', _('install torch', 'pip install torch --index-url https://mirror.test/simple'))
  it('adds the mirror to download', _('download -d out numpy', 'pip download -d out numpy --index-url https://mirror.test/simple'))
  it('adds the mirror after general options', _('--timeout 30 install x', 'pip --timeout 30 install x --index-url https://mirror.test/simple'))
  it('leaves list alone', _('list', 'pip list'))
  it('rewrites list --outdated', _('list --outdated', 'pip list --outdated --index-url https://mirror.test/simple'))
  it('leaves freeze alone', _('freeze', 'pip freeze'))
  it('leaves --version alone', _('--version', 'pip --version'))
  it('leaves search alone (always fails upstream)', _('search x', 'pip search x'))
})

describe('pip: classify', () => {
  const classify = (args: string) => pip.classify(args.split(' '))
  it.each(['install x', 'download x', 'wheel x', 'index versions x', '--proxy http://p:1 install x', '-v install x'])('%s is network', args => expect(classify(args)).toBe('network'))
  it.each(['list', 'freeze', 'show x', 'check', 'config list', 'cache dir', '--version', 'uninstall x', 'help', 'search x'])('%s is local', args => expect(classify(args)).toBe('local'))
})

describe('pip: the user index choice', () => {
  const home = mkdtempSync(join(tmpdir(), 'pip-home-'))
  const context = (args: string, env: NodeJS.ProcessEnv = {}, cwd = home) => ({ args: args.split(' '), env: { PIP_CONFIG_FILE: join(home, 'none.conf'), ...env }, cwd, home })
  const index = (args: string, env?: NodeJS.ProcessEnv, cwd?: string) => pip.findUserIndex(context(args, env, cwd))?.url
  it.each([
    ['install -i https://a.test/simple x', 'https://a.test/simple'],
    ['install -ihttps://a.test/simple x', 'https://a.test/simple'],
    ['install --index-url https://a.test/simple x', 'https://a.test/simple'],
    ['install --index-url=https://a.test/simple x', 'https://a.test/simple'],
    ['install --ind https://a.test/simple x', 'https://a.test/simple'],
    ['install --index https://a.test/simple x', 'https://a.test/simple'],
    ['install --pypi-url https://a.test/simple x', 'https://a.test/simple'],
    ['install --no-index -f ./wheels x', 'none'],
  ])('%s', (args, expected) => expect(index(args)).toBe(expected))
  it('reads PIP_INDEX_URL', () => expect(index('install x', { PIP_INDEX_URL: 'https://env.test/simple' })).toBe('https://env.test/simple'))
  it('ignores env with --isolated', () => expect(index('--isolated install x', { PIP_INDEX_URL: 'https://env.test/simple' })).toBeUndefined())
  it('reads pip.conf, command section over global', () => {
    const file = join(home, 'pip.conf')
    writeFileSync(file, '[global]\nindex-url = https://global.test/simple\n[install]\nindex-url = https://install.test/simple\n')
    expect(index('install x', { PIP_CONFIG_FILE: file })).toBe('https://install.test/simple')
    expect(index('download x', { PIP_CONFIG_FILE: file })).toBe('https://global.test/simple')
  })
  it('reads nested requirement files, and marks the choice as locked', () => {
    const project = mkdtempSync(join(tmpdir(), 'pip-req-'))
    mkdirSync(join(project, 'reqs'))
    writeFileSync(join(project, 'requirements.txt'), 'flask\n-r reqs/base.txt\n')
    writeFileSync(join(project, 'reqs', 'base.txt'), '--index-url https://req.test/simple  # company index\nrequests\n')
    expect(pip.findUserIndex(context('install -r requirements.txt', {}, project))).toMatchObject({ url: 'https://req.test/simple', locked: true })
  })
  describe('no-index wherever pip reads it: no index at all, whatever else names one', () => {
    const conf = (text: string) => {
      const file = join(mkdtempSync(join(tmpdir(), 'pip-conf-')), 'pip.conf')
      writeFileSync(file, text)
      return file
    }
    it.each([
      ['[global]\nno-index = true\nfind-links = /srv/wheels\n', 'install x'],
      ['[global]\nno-index = yes\n', 'download x'],
      ['[global]\nno_index = 1\n', 'install x'],
      ['[install]\nno-index = on\nindex-url = https://install.test/simple\n', 'install x'],
      ['[global]\nno-index = true\n', 'install -i https://cli.test/simple x'],
    ])('pip.conf %j with pip %s', (text, args) => expect(pip.findUserIndex(context(args, { PIP_CONFIG_FILE: conf(text) }))).toMatchObject({ url: 'none', origin: expect.stringMatching(/no-index$/) }))
    it('a false value or another command\'s section leaves the index', () => {
      expect(index('install x', { PIP_CONFIG_FILE: conf('[global]\nno-index = false\nindex-url = https://g.test/simple\n') })).toBe('https://g.test/simple')
      expect(index('install x', { PIP_CONFIG_FILE: conf('[download]\nno-index = true\n') })).toBeUndefined()
    })
    it('PIP_NO_INDEX overrides the files, both ways', () => {
      const file = conf('[global]\nno-index = true\n')
      expect(index('install x', { PIP_CONFIG_FILE: file, PIP_NO_INDEX: 'false' })).toBeUndefined()
      expect(index('install x', { PIP_NO_INDEX: 'yes', PIP_INDEX_URL: 'https://env.test/simple' })).toBe('none')
    })
    it('a requirement file\'s --no-index holds wherever it stands, before an --index-url too', () => {
      const project = mkdtempSync(join(tmpdir(), 'pip-req-'))
      writeFileSync(join(project, 'requirements.txt'), '--no-index\n--find-links ./wheels\n--index-url https://later.test/simple\nflask\n')
      expect(pip.findUserIndex(context('install -r requirements.txt', {}, project))).toMatchObject({ url: 'none', locked: true })
    })
  })
  it('finds the user timeout knobs', () => {
    expect(findUserKnobs(pip, context('install x')).userSet).toBe(false)
    expect(findUserKnobs(pip, context('install --timeout 60 x')).userSet).toBe(true)
    expect(findUserKnobs(pip, context('install x', { PIP_DEFAULT_TIMEOUT: '180' })).origin).toBe('PIP_DEFAULT_TIMEOUT')
  })
})

describe('parseInvocation', () => {
  const env = { PATH: process.env.PATH }
  it('splits python3 -m pip', () => expect(parseInvocation(['python3', '-m', 'pip', 'install', 'x'], env)).toMatchObject({ tool: 'pip', launcher: ['python3', '-m', 'pip'], args: ['install', 'x'] }))
  it('accepts interpreter flags before -m', () => expect(parseInvocation(['python3', '-I', '-m', 'pip', 'list'], env).launcher).toEqual(['python3', '-I', '-m', 'pip']))
  it('rejects an unknown tool with exit 64', () => expect(() => parseInvocation(['pipp', 'install'], env)).toThrow(expect.objectContaining({ exitCode: 64 })))
  it('suggests `python3 -m <module>` only when that interpreter has the module', () => {
    const error = (() => { try { parseInvocation(['uv', 'pip', 'install', 'x'], env) } catch (caught) { return caught as { hint: string } } })()
    expect(error?.hint).not.toMatch(/-m uv/)
    const pipError = (() => { try { parseInvocation(['pip3.99', 'install'], env) } catch (caught) { return caught as { hint: string } } })()
    expect(pipError?.hint).toMatch(/python3 -m pip/)
  })
  it('plans for a missing tool in a dry run instead of failing', () => {
    expect(parseInvocation(['conda', 'install', 'x'], { PATH: '/nonexistent' }, { allowMissing: true })).toMatchObject({ tool: 'conda', missing: true, executable: '' })
  })
  it('names what was found when the tool is missing (exit 127)', () => {
    expect(() => parseInvocation(['pip3.99', 'install'], env)).toThrow(expect.objectContaining({ exitCode: 127, hint: expect.stringMatching(/Found instead: .*python3 -m pip/) }))
  })
})
