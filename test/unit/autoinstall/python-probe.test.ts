import { existsSync, mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { describe, expect, it } from 'vitest'
import { askPythonEnvironment, askPythonFacts, type RunPython } from '../../../src/autoinstall/python-probe.js'
import { itNeeding, onDisk, pyenvPython } from '../../helpers/requirements.js'

// The snippets run in real interpreters: the machine's python3, and pyenv's older versions when present.
const pythonOf = (version: string) => pyenvPython(version).path

function runIn(cwd: string): RunPython {
  return async (python, args) => {
    const result = await execa(python, args, { cwd, reject: false })
    return { exitCode: result.exitCode ?? 1, stdout: String(result.stdout) }
  }
}

describe('askPythonFacts', () => {
  it('tells the standard library, a missing name and a namespace package apart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'resilient-py-'))
    mkdirSync(join(dir, 'nsroot_test', 'inner'), { recursive: true })
    const run = runIn(dir)
    expect(await askPythonFacts('python3', 'json.decoder', run)).toMatchObject({ found: true, namespace: false, stdlib: true })
    expect(await askPythonFacts('python3', 'no_such_module_xyz', run)).toMatchObject({ found: false, stdlib: false })
    expect(await askPythonFacts('python3', 'nsroot_test.inner', run)).toMatchObject({ found: true, namespace: true, stdlib: false })
  })

  itNeeding(pyenvPython('3.9.18'), 'says "cannot tell" for the standard library before 3.10, except builtins', async () => {
    expect(await askPythonFacts(pythonOf('3.9.18'), 'json')).toMatchObject({ found: true, stdlib: null, version: [3, 9] })
    expect(await askPythonFacts(pythonOf('3.9.18'), 'sys')).toMatchObject({ stdlib: true })
  })

  itNeeding(pyenvPython('3.13.0'), 'knows telnetlib is gone from 3.13', async () => {
    expect(await askPythonFacts(pythonOf('3.13.0'), 'telnetlib')).toMatchObject({ found: false, stdlib: false, version: [3, 13] })
  })

  itNeeding(pyenvPython('2.7.18'), 'gives no answer from Python 2', async () => {
    expect(await askPythonFacts(pythonOf('2.7.18'), 'cv2')).toBeUndefined()
  })

  it('gives no answer from a program that is not there', async () => {
    expect(await askPythonFacts('/nonexistent/python', 'cv2')).toBeUndefined()
  })
})

describe('askPythonEnvironment', () => {
  it('tells a virtual environment from a global Python, and gives the paths its scripts see', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'resilient-py-'))
    await execa('python3', ['-m', 'venv', '--without-pip', join(dir, 'venv')])
    const venv = await askPythonEnvironment(join(dir, 'venv/bin/python'))
    expect(venv).toMatchObject({ venv: true, condaEnv: false, externallyManaged: false, prefix: join(dir, 'venv') })
    expect(venv?.paths).toContain(join(dir, 'venv/lib', `python${venv!.version.join('.')}`, 'site-packages'))
    expect(await askPythonEnvironment('python3')).toMatchObject({ venv: false })
  })

  itNeeding(onDisk('Debian\'s python3', '/usr/lib/python3/dist-packages', '/usr/bin/python3'), 'sees PEP 668 on an OS-managed Python', async () => {
    const answer = await askPythonEnvironment('/usr/bin/python3')
    const marker = existsSync(`/usr/lib/python3.${answer?.version[1]}/EXTERNALLY-MANAGED`)
    expect(answer).toMatchObject({ venv: false, externallyManaged: marker, prefix: '/usr' })
  })
})
