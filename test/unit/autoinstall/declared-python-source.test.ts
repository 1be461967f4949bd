import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { declaredPythonSource } from '../../../src/autoinstall/declared-python-source.js'
import { folderWith } from '../../helpers/tool-cases.js'

// Where a project says its packages come from, as the pip variables `resilient run`'s install gets (never argv).
const source = (files: Record<string, string>) => declaredPythonSource(folderWith(files))

describe('declaredPythonSource', () => {
  it('a requirement file\'s index options, as pip reads them', () => {
    expect(source({ 'requirements.txt': '-i https://corp.test/simple\n--extra-index-url https://more.test/simple\nflask\n' })).toEqual({
      env: { PIP_INDEX_URL: 'https://corp.test/simple', PIP_EXTRA_INDEX_URL: 'https://more.test/simple' }, origin: 'requirements.txt:1, requirements.txt:2' })
    expect(source({ 'requirements/base.txt': '--index-url=https://corp.test/simple # ours\n' })?.env).toEqual({ PIP_INDEX_URL: 'https://corp.test/simple' })
  })
  it('--no-index with find-links: no index, the folder beside the file', () => {
    const root = folderWith({ 'requirements.txt': '--no-index\n--find-links wheels\nflask\n', 'wheels/.keep': '' })
    expect(declaredPythonSource(root)?.env).toEqual({ PIP_NO_INDEX: '1', PIP_FIND_LINKS: join(root, 'wheels') })
  })
  it('uv: the default index first, the others after it; explicit ones serve only their packages', () => {
    const toml = '[[tool.uv.index]]\nname = "a"\nurl = "https://a.test/simple"\n\n[[tool.uv.index]]\nname = "b"\nurl = "https://b.test/simple"\ndefault = true\n\n[[tool.uv.index]]\nname = "c"\nurl = "https://c.test/simple"\nexplicit = true\n'
    expect(source({ 'pyproject.toml': toml })?.env).toEqual({ PIP_INDEX_URL: 'https://b.test/simple', PIP_EXTRA_INDEX_URL: 'https://a.test/simple' })
  })
  it('uv: an index without `default` is asked before PyPI, so PyPI is not used', () => {
    expect(source({ 'pyproject.toml': '[[tool.uv.index]]\nname = "corp"\nurl = "https://corp.test/simple"\n' })?.env).toEqual({ PIP_INDEX_URL: 'https://corp.test/simple' })
  })
  it('PDM: a source named pypi replaces PyPI; the others come beside it', () => {
    expect(source({ 'pyproject.toml': '[[tool.pdm.source]]\nname = "pypi"\nurl = "https://corp.test/simple"\n\n[[tool.pdm.source]]\nname = "extra"\nurl = "https://more.test/simple"\n' })?.env)
      .toEqual({ PIP_INDEX_URL: 'https://corp.test/simple', PIP_EXTRA_INDEX_URL: 'https://more.test/simple' })
    expect(source({ 'pyproject.toml': '[[tool.pdm.source]]\nname = "extra"\nurl = "https://more.test/simple"\n' })?.env).toEqual({ PIP_EXTRA_INDEX_URL: 'https://more.test/simple' })
  })
  it('Poetry: primary sources replace PyPI, supplemental ones come beside, explicit ones are left out', () => {
    const toml = '[[tool.poetry.source]]\nname = "corp"\nurl = "https://corp.test/simple"\n\n[[tool.poetry.source]]\nname = "sup"\nurl = "https://sup.test/simple"\npriority = "supplemental"\n\n[[tool.poetry.source]]\nname = "x"\nurl = "https://x.test/simple"\npriority = "explicit"\n'
    expect(source({ 'pyproject.toml': toml })?.env).toEqual({ PIP_INDEX_URL: 'https://corp.test/simple', PIP_EXTRA_INDEX_URL: 'https://sup.test/simple' })
  })
  it('nothing declared: nothing', () => {
    expect(source({ 'requirements.txt': 'flask\n', 'pyproject.toml': '[project]\nname = "a"\n' })).toBeUndefined()
  })
})
