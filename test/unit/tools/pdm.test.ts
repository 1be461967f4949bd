import { findUserKnobs } from '../../../src/tools/knobs.js'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { configSchema } from '../../../src/config/schema.js'
import { planSources } from '../../helpers/plan-helpers.js'
import { pdm } from '../../../src/tools/pdm.js'
import { contextIn, folderWith, rewrite } from '../../helpers/tool-cases.js'

const M = 'https://mirror.test/simple'
const _ = (line: string, expected: string, options: { bypassCache?: boolean } = {}) => () => expect(rewrite(pdm, line, M, options)).toBe(expected)

describe('pdm: rewriting', () => {
  it('sets PDM_PYPI_URL', _('pdm add requests', `PDM_PYPI_URL=${M} pdm add requests`))
  it('handles install, sync and lock', () => {
    for (const verb of ['install', 'sync', 'lock']) expect(rewrite(pdm, `pdm ${verb}`, M)).toBe(`PDM_PYPI_URL=${M} pdm ${verb}`)
  })
  it('never shortens the request timeout', _('pdm install', `PDM_PYPI_URL=${M} pdm install`))
  it('bypasses the cache', _('pdm install', `PDM_PYPI_URL=${M} PDM_NO_CACHE=1 pdm install`, { bypassCache: true }))
  it('leaves run alone', _('pdm run pytest', 'pdm run pytest'))
  it('leaves publish alone', _('pdm publish', 'pdm publish'))
})

describe('pdm: classify', () => {
  const classify = (args: string) => pdm.classify(args.split(' ').filter(Boolean))
  it.each(['add x', 'remove x', 'install', 'sync', 'lock', 'update', 'outdated', 'build', 'self update', '-c cfg.toml install'])('%s is network', args => expect(classify(args)).toBe('network'))
  it('publish is publish', () => expect(classify('publish')).toBe('publish'))
  it.each(['', 'run x', 'list', 'info', 'config', 'init', 'export', 'venv list', 'cache clear', 'install --help', '--version'])('"%s" is local', args => expect(classify(args)).toBe('local'))
})

describe('pdm: the user index choice', () => {
  const index = (files: Record<string, string>, env: NodeJS.ProcessEnv = {}, args = 'install', home?: string) => {
    const root = folderWith(files)
    return { root, choice: pdm.findUserIndex(contextIn(root, args, env, home)) }
  }
  it('reads PDM_PYPI_URL', () => expect(index({}, { PDM_PYPI_URL: 'https://e.test/simple' }).choice).toEqual({ url: 'https://e.test/simple', origin: 'PDM_PYPI_URL' }))
  it('takes a source named pypi as locked: it beats the variable', () => {
    const { root, choice } = index({ 'pyproject.toml': '[[tool.pdm.source]]\nname = "pypi"\nurl = "https://corp.test/simple"\n' }, { PDM_PYPI_URL: 'https://e.test/simple' })
    expect(choice).toEqual({ url: 'https://corp.test/simple', origin: `${join(root, 'pyproject.toml')} [[tool.pdm.source]] name = "pypi"`, locked: true })
  })
  it('does not report other sources (extra indexes)', () =>
    expect(index({ 'pyproject.toml': '[[tool.pdm.source]]\nname = "extra"\nurl = "https://corp.test/simple"\n' }).choice).toBeNull())
  it('reads pypi.url from pdm.toml, .pdm.toml and the global config', () => {
    expect(index({ 'pyproject.toml': '', 'pdm.toml': '[pypi]\nurl = "https://project.test/simple"\n' }).choice?.url).toBe('https://project.test/simple')
    expect(index({ 'pyproject.toml': '', '.pdm.toml': '[pypi]\nurl = "https://legacy.test/simple"\n' }).choice?.url).toBe('https://legacy.test/simple')
    const home = folderWith({ '.config/pdm/config.toml': '[pypi]\nurl = "https://global.test/simple"\n' })
    expect(index({}, {}, 'install', home).choice?.url).toBe('https://global.test/simple')
    const other = folderWith({ 'c.toml': '[pypi]\nurl = "https://file.test/simple"\n' })
    expect(index({}, { PDM_CONFIG_FILE: join(other, 'c.toml') }).choice?.url).toBe('https://file.test/simple')
    expect(index({}, {}, `-c ${join(other, 'c.toml')} install`).choice?.url).toBe('https://file.test/simple')
  })
  it('plans no mirror over a public source named pypi, and none over a private one', () => {
    for (const url of ['https://pypi.org/simple', 'https://corp.test/simple']) {
      const context = contextIn(folderWith({ 'pyproject.toml': `[[tool.pdm.source]]\nname = "pypi"\nurl = "${url}"\n` }), 'install')
      const plan = planSources({ adapter: pdm, config: configSchema.parse({}), userIndex: pdm.findUserIndex(context), context })
      expect(plan.fallbacks).toEqual([])
    }
  })
  it('says a lock that pins URLs (static_urls, or pdm before 2.8) leaves install and sync no mirror', () => {
    const staticUrls = '[metadata]\nstrategy = ["static_urls"]\n[[package]]\nname = "a"\nfiles = [\n    {url = "https://files.pythonhosted.org/a-1-py3-none-any.whl", hash = "sha256:00"},\n]\n'
    const legacy = '[metadata.files]\n"a 1" = [\n    {url = "https://pypi.tuna.tsinghua.edu.cn/packages/a-1.whl", hash = "sha256:00"},\n]\n'
    for (const lock of [staticUrls, legacy]) {
      const root = folderWith({ 'pyproject.toml': '', 'pdm.lock': lock })
      expect(pdm.noMirrorReason(contextIn(root, 'sync'))).toMatch(/pdm\.lock pins the download URL/)
      expect(pdm.noMirrorReason(contextIn(root, 'install'))).toMatch(/pdm\.lock pins/)
      expect(pdm.noMirrorReason(contextIn(root, 'lock'))).toBeUndefined()
    }
    const names = '[[package]]\nname = "a"\nfiles = [\n    {file = "a-1-py3-none-any.whl", hash = "sha256:00"},\n]\n'
    expect(pdm.noMirrorReason(contextIn(folderWith({ 'pyproject.toml': '', 'pdm.lock': names }), 'sync'))).toBeUndefined()
  })
})

describe('pdm: timeouts', () => {
  it('respects PDM_REQUEST_TIMEOUT and request_timeout', () => {
    expect(findUserKnobs(pdm, contextIn(folderWith({}), 'install', { PDM_REQUEST_TIMEOUT: '60' })).origin).toBe('PDM_REQUEST_TIMEOUT')
    const root = folderWith({ 'pyproject.toml': '', 'pdm.toml': 'request_timeout = 60\n' })
    expect(findUserKnobs(pdm, contextIn(root, 'install')).userSet).toBe(true)
    expect(findUserKnobs(pdm, contextIn(folderWith({}), 'install')).userSet).toBe(false)
  })
})
