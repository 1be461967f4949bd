import { findUserKnobs } from '../../../src/tools/knobs.js'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { configSchema } from '../../../src/config/schema.js'
import { planSources } from '../../helpers/plan-helpers.js'
import { poetry } from '../../../src/tools/poetry.js'
import { contextIn, folderWith, rewrite } from '../../helpers/tool-cases.js'

const M = 'https://mirror.test/simple'
const _ = (line: string, expected: string, options: { bypassCache?: boolean } = {}) => () => expect(rewrite(poetry, line, M, options)).toBe(expected)

describe('poetry: rewriting', () => {
  it('has no way to use a mirror: the command stays as typed', _('poetry add requests', 'poetry add requests'))
  it('never shortens its request timeout', _('poetry install', 'poetry install'))
  it('bypasses its caches with --no-cache', _('poetry lock', 'poetry lock --no-cache', { bypassCache: true }))
  it('leaves run alone', _('poetry run pytest', 'poetry run pytest'))
})

describe('poetry: classify', () => {
  const classify = (args: string) => poetry.classify(args.split(' ').filter(Boolean))
  it.each(['install', 'sync', 'add x', 'remove x', 'update', 'lock', 'lock --no-update', 'self update', 'self add x', 'show --outdated', '-C app install'])(
    '%s is network', args => expect(classify(args)).toBe('network'))
  it('publish is publish', () => expect(classify('publish --build')).toBe('publish'))
  it.each(['', 'run pytest', 'show', 'check', 'config --list', 'env info', 'version', 'source show', 'cache list', 'build', 'install --help', '--version', 'shell'])(
    '"%s" is local', args => expect(classify(args)).toBe('local'))
})

describe('poetry: the user index choice', () => {
  const source = (fields: string) => `[tool.poetry]\nname = "p"\n[[tool.poetry.source]]\n${fields}\n`
  const index = (pyproject: string, args = 'install', sub = '') => {
    const root = folderWith({ 'pyproject.toml': pyproject, 'src/.keep': '' })
    return { root, choice: poetry.findUserIndex(contextIn(join(root, sub), args)) }
  }
  it('reads a primary source (the default priority) from pyproject.toml above the current folder', () => {
    const { root, choice } = index(source('name = "corp"\nurl = "https://corp.test/simple"'), 'install', 'src')
    expect(choice).toEqual({ url: 'https://corp.test/simple', origin: `${join(root, 'pyproject.toml')} [[tool.poetry.source]] corp` })
  })
  it.each([['priority = "primary"'], ['priority = "default"'], ['default = true']])('reads %s', fields =>
    expect(index(source(`name = "c"\nurl = "https://corp.test/simple"\n${fields}`)).choice?.url).toBe('https://corp.test/simple'))
  it.each([['priority = "supplemental"'], ['priority = "explicit"'], ['secondary = true']])('does not take %s for the index', fields =>
    expect(index(source(`name = "c"\nurl = "https://corp.test/simple"\n${fields}`)).choice).toBeNull())
  it('reads the source named by add --source', () => {
    const two = `${source('name = "a"\nurl = "https://a.test/simple"\npriority = "supplemental"')}[[tool.poetry.source]]\nname = "b"\nurl = "https://b.test/simple"\npriority = "explicit"\n`
    expect(index(two, 'add --source b x').choice?.url).toBe('https://b.test/simple')
  })
  it('reads -C', () => {
    const root = folderWith({ 'app/pyproject.toml': source('name = "c"\nurl = "https://corp.test/simple"') })
    expect(poetry.findUserIndex(contextIn(root, '-C app install'))?.url).toBe('https://corp.test/simple')
  })
  it('plans no mirror and says why', () => {
    const context = contextIn(folderWith({ 'pyproject.toml': '[tool.poetry]\nname = "p"\n' }), 'install')
    const plan = planSources({ adapter: poetry, config: configSchema.parse({}), userIndex: poetry.findUserIndex(context), context })
    expect(plan.fallbacks).toEqual([])
    expect(plan.noSwitchReason).toMatch(/poetry has no option or variable/)
  })
  it('keeps the private-index reason for a private source', () => {
    const context = contextIn(index(source('name = "c"\nurl = "https://corp.test/simple"')).root, 'install')
    const plan = planSources({ adapter: poetry, config: configSchema.parse({}), userIndex: poetry.findUserIndex(context), context })
    expect(plan.primary.kind).toBe('private')
    expect(plan.noSwitchReason).toMatch(/dependency confusion/)
  })
})

describe('poetry: timeouts', () => {
  it('respects POETRY_REQUESTS_TIMEOUT', () => expect(findUserKnobs(poetry, contextIn(folderWith({}), 'install', { POETRY_REQUESTS_TIMEOUT: '60' }))).toEqual({ userSet: true, origin: 'POETRY_REQUESTS_TIMEOUT' }))
  it('respects requests.max-retries in poetry.toml and the user config', () => {
    const root = folderWith({ 'pyproject.toml': '[tool.poetry]\n', 'poetry.toml': '[requests]\nmax-retries = 3\n' })
    expect(findUserKnobs(poetry, contextIn(root, 'install'))).toEqual({ userSet: true, origin: `${join(root, 'poetry.toml')} requests.max-retries` })
    const home = folderWith({ '.config/pypoetry/config.toml': '[requests]\nmax-retries = 3\n' })
    expect(findUserKnobs(poetry, contextIn(folderWith({}), 'install', {}, home)).userSet).toBe(true)
  })
})
