import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { resolvePythonShim } from '../../../../src/tools/config/python-shims.js'

/** A pyenv root as pyenv lays it out: shims/<command> (its real text), versions/<v>/bin/<command>, a global version file. */
function pyenvRoot(options: { versions: Record<string, string[]>; global?: string }) {
  const root = mkdtempSync(join(tmpdir(), 'resilient-pyenv-'))
  const file = (path: string, text = '#!/bin/sh\n') => {
    mkdirSync(join(root, path, '..'), { recursive: true })
    writeFileSync(join(root, path), text, { mode: 0o755 })
  }
  for (const command of ['pip', 'python']) {
    file(`shims/${command}`, `#!/usr/bin/env bash\nset -e\n[ -n "$PYENV_DEBUG" ] && set -x\n\nprogram="\${0##*/}"\n\nexport PYENV_ROOT="${root}"\nSHIM_PATH=\${0%/*}\nexec "${root}/libexec/pyenv" exec "$program" "$@"\n`)
  }
  for (const [version, commands] of Object.entries(options.versions)) for (const command of commands) file(`versions/${version}/bin/${command}`)
  if (options.global !== undefined) file('version', options.global)
  return { root, shim: (command: string) => join(root, 'shims', command), bin: (version: string, command: string) => join(root, 'versions', version, 'bin', command) }
}
const project = (files: Record<string, string> = {}) => {
  const dir = mkdtempSync(join(tmpdir(), 'resilient-pyenv-project-'))
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true })
    writeFileSync(join(dir, name), text)
  }
  return dir
}

describe('a pyenv shim followed through its version files, as pyenv reads them', () => {
  it('PYENV_VERSION first, then the nearest .python-version, then the global file', () => {
    const pyenv = pyenvRoot({ versions: { '3.11.7': ['pip'], '3.12.1': ['pip'], '3.10.13': ['pip'] }, global: '3.10.13\n' })
    const dir = project({ '.python-version': '# the project\'s\n3.12.1\n', 'sub/deeper/.keep': '' })
    expect(resolvePythonShim(pyenv.shim('pip'), { PYENV_VERSION: '3.11.7' }, dir, dir)).toEqual({ executable: pyenv.bin('3.11.7', 'pip') })
    expect(resolvePythonShim(pyenv.shim('pip'), {}, join(dir, 'sub', 'deeper'), dir)).toEqual({ executable: pyenv.bin('3.12.1', 'pip') })
    expect(resolvePythonShim(pyenv.shim('pip'), {}, project(), dir)).toEqual({ executable: pyenv.bin('3.10.13', 'pip') })
  })

  it('several versions: the first that has the command; `system` is the command on PATH outside the shims', () => {
    const pyenv = pyenvRoot({ versions: { '3.11.7': ['python'], '3.12.1': ['pip'] } })
    expect(resolvePythonShim(pyenv.shim('pip'), { PYENV_VERSION: '3.11.7:3.12.1' }, project(), '/')).toEqual({ executable: pyenv.bin('3.12.1', 'pip') })
    const system = project({ 'bin/pip': '#!/bin/sh\n' })
    expect(resolvePythonShim(pyenv.shim('pip'), { PYENV_VERSION: 'system', PATH: `${join(pyenv.root, 'shims')}:${join(system, 'bin')}` }, project(), '/')).toEqual({ executable: join(system, 'bin', 'pip') })
  })

  it('is uncertain where pyenv would decide at run time: a partial version, a path, a plugin hook on version-name', () => {
    const pyenv = pyenvRoot({ versions: { '3.11.7': ['pip'] } })
    expect(resolvePythonShim(pyenv.shim('pip'), { PYENV_VERSION: '3.11' }, project(), '/')).toMatchObject({ uncertain: expect.stringMatching(/3\.11 is not installed as such/) })
    expect(resolvePythonShim(pyenv.shim('pip'), {}, project({ '.python-version': '../../etc\n' }), '/')).toMatchObject({ uncertain: expect.stringMatching(/path/) })
    mkdirSync(join(pyenv.root, 'pyenv.d', 'version-name'), { recursive: true })
    writeFileSync(join(pyenv.root, 'pyenv.d', 'version-name', 'pick.bash'), 'PYENV_VERSION=3.12\n')
    expect(resolvePythonShim(pyenv.shim('pip'), { PYENV_VERSION: '3.11.7' }, project(), '/')).toMatchObject({ uncertain: expect.stringMatching(/hooks/) })
  })

  it('is nothing to say about a program that is no shim', () => {
    const dir = project({ 'bin/pip': '#!/usr/bin/python3\nimport pip\n' })
    expect(resolvePythonShim(join(dir, 'bin', 'pip'), {}, dir, dir)).toBeUndefined()
  })
})

describe('an asdf shim', () => {
  it('ASDF_PYTHON_VERSION, else the nearest .tool-versions, else the home one', () => {
    const data = mkdtempSync(join(tmpdir(), 'resilient-asdf-'))
    mkdirSync(join(data, 'shims'))
    writeFileSync(join(data, 'shims', 'pip'), '#!/usr/bin/env bash\n# asdf-plugin: python 3.11.7\nexec asdf exec "pip" "$@"\n', { mode: 0o755 })
    for (const version of ['3.11.7', '3.12.1']) {
      mkdirSync(join(data, 'installs', 'python', version, 'bin'), { recursive: true })
      writeFileSync(join(data, 'installs', 'python', version, 'bin', 'pip'), '#!/bin/sh\n')
    }
    const home = project({ '.tool-versions': 'nodejs 20.11.0\npython 3.11.7\n' })
    const dir = project({ '.tool-versions': 'python 3.12.1 # pinned\n' })
    const shim = join(data, 'shims', 'pip')
    expect(resolvePythonShim(shim, { ASDF_PYTHON_VERSION: '3.11.7' }, dir, home)).toEqual({ executable: join(data, 'installs', 'python', '3.11.7', 'bin', 'pip') })
    expect(resolvePythonShim(shim, {}, dir, home)).toEqual({ executable: join(data, 'installs', 'python', '3.12.1', 'bin', 'pip') })
    expect(resolvePythonShim(shim, {}, project(), home)).toEqual({ executable: join(data, 'installs', 'python', '3.11.7', 'bin', 'pip') })
    expect(resolvePythonShim(shim, {}, project({ '.tool-versions': 'python system\n' }), home)).toMatchObject({ uncertain: expect.any(String) })
  })
})
