import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findNodeDeclarations } from '../../../src/autoinstall/declared-node.js'
import { findPythonDeclarations } from '../../../src/autoinstall/declared-python.js'
import { poetryToPep440 } from '../../../src/autoinstall/poetry-constraint.js'

function dir(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'resilient-declared-'))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

describe('findPythonDeclarations', () => {
  it('reads requirements files, with their line, skipping options and comments', () => {
    const root = dir({ 'requirements.txt': '# pinned\n--index-url https://x.test/simple\nPyYAML==5.4.1  # the old one\nrequests[socks] >=2 ; python_version >= "3.8"\n', 'requirements/dev.txt': 'pytest>=8\n' })
    const found = findPythonDeclarations(undefined, root)
    expect(found.get('pyyaml')).toEqual({ requirement: 'PyYAML==5.4.1', origin: 'requirements.txt:3' })
    expect(found.get('requests')).toEqual({ requirement: 'requests[socks] >=2 ; python_version >= "3.8"', origin: 'requirements.txt:4' })
    expect(found.get('pytest')).toMatchObject({ requirement: 'pytest>=8', origin: 'requirements/dev.txt:1' })
  })

  it('never drops a hash or follows a direct reference', () => {
    const found = findPythonDeclarations(undefined, dir({ 'requirements.txt': 'PyYAML==5.4.1 \\\n    --hash=sha256:abc\nmylib @ https://x.test/mylib.whl\n' }))
    expect(found.get('pyyaml')).toMatchObject({ unusable: expect.stringMatching(/pinned with hashes/) })
    expect(found.get('mylib')).toMatchObject({ unusable: expect.stringMatching(/direct reference/) })
  })

  it('reads pyproject.toml: PEP 621, optional dependencies, dependency groups, and Poetry', () => {
    const root = dir({
      'pyproject.toml': '[project]\ndependencies = ["PyYAML==5.4.1"]\n[project.optional-dependencies]\ncv = ["opencv-python>=4"]\n[dependency-groups]\ndev = ["pytest"]\n[tool.poetry.dependencies]\npython = "^3.10"\nrequests = "^2.31"\nhttpx = { version = "~0.27", extras = ["http2"] }\nmine = { git = "https://x.test/mine.git" }\n',
    })
    const found = findPythonDeclarations(undefined, root)
    expect(found.get('pyyaml')).toEqual({ requirement: 'PyYAML==5.4.1', origin: 'pyproject.toml [project.dependencies]' })
    expect(found.get('opencv-python')?.origin).toBe('pyproject.toml [project.optional-dependencies.cv]')
    expect(found.get('pytest')?.origin).toBe('pyproject.toml [dependency-groups.dev]')
    expect(found.get('requests')?.requirement).toBe('requests>=2.31,<3.0')
    expect(found.get('httpx')?.requirement).toBe('httpx[http2]>=0.27,<0.28')
    expect(found.get('mine')).toMatchObject({ unusable: expect.stringMatching(/git/) })
    expect(found.has('python')).toBe(false)
  })

  it('takes the script\'s own PEP 723 metadata first', () => {
    const root = dir({ 'app.py': '# /// script\n# requires-python = ">=3.10"\n# dependencies = [\n#   "PyYAML==5.3",\n# ]\n# ///\nimport yaml\n', 'requirements.txt': 'PyYAML==6.0\n' })
    expect(findPythonDeclarations(join(root, 'app.py'), root).get('pyyaml')).toEqual({ requirement: 'PyYAML==5.3', origin: 'app.py (inline script metadata)' })
  })
})

describe('poetryToPep440', () => {
  it.each([
    ['^1.2.3', '>=1.2.3,<2.0.0'], ['^0.2.3', '>=0.2.3,<0.3.0'], ['^0.0.3', '>=0.0.3,<0.0.4'], ['^1.2', '>=1.2,<2.0'], ['^0', '>=0,<1'],
    ['~1.2.3', '>=1.2.3,<1.3.0'], ['~1.2', '>=1.2,<1.3'], ['~1', '>=1,<2'], ['1.2.3', '==1.2.3'], ['1.2.*', '==1.2.*'], ['*', ''],
    ['>=1.2,<1.5', '>=1.2,<1.5'], ['>=1.2 <1.5', '>=1.2,<1.5'], ['~=1.4', '~=1.4'], ['!=1.3', '!=1.3'],
  ])('%s → %s', (constraint, expected) => expect(poetryToPep440(constraint)).toBe(expected))

  it('gives up on what PEP 440 cannot say', () => expect(poetryToPep440('^1.2 || ^2.0')).toBeUndefined())
})

describe('findNodeDeclarations', () => {
  it('reads package.json ranges and refuses what is not a registry range', () => {
    const root = dir({ 'package.json': JSON.stringify({ dependencies: { lodash: '^4.17.0', mine: 'file:../mine', aliased: 'npm:other@1' }, devDependencies: { chalk: '5.3.0', lodash: '3' } }) })
    const found = findNodeDeclarations(root)
    expect(found.get('lodash')).toEqual({ requirement: 'lodash@^4.17.0', origin: 'package.json dependencies' })
    expect(found.get('chalk')).toEqual({ requirement: 'chalk@5.3.0', origin: 'package.json devDependencies' })
    expect(found.get('mine')).toMatchObject({ unusable: expect.stringContaining('file:../mine') })
    expect(found.get('aliased')).toMatchObject({ unusable: expect.any(String) })
  })
})
