import { existsSync, mkdirSync, mkdtempSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { describe, expect, it } from 'vitest'
import { askPythonFacts, verifyPythonImport, type RunPython } from '../../../src/autoinstall/python-probe.js'

// The snippets run in real interpreters: the machine's python3, and pyenv's older versions when present.
const versions = join(process.env.PYENV_ROOT ?? join(homedir(), '.pyenv'), 'versions')
const pythonOf = (version: string) => join(versions, version, 'bin', 'python')
const has = (version: string) => existsSync(pythonOf(version))

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

  it.skipIf(!has('3.9.18'))('says "cannot tell" for the standard library before 3.10, except builtins', async () => {
    expect(await askPythonFacts(pythonOf('3.9.18'), 'json')).toMatchObject({ found: true, stdlib: null, version: [3, 9] })
    expect(await askPythonFacts(pythonOf('3.9.18'), 'sys')).toMatchObject({ stdlib: true })
  })

  it.skipIf(!has('3.13.0'))('knows telnetlib is gone from 3.13', async () => {
    expect(await askPythonFacts(pythonOf('3.13.0'), 'telnetlib')).toMatchObject({ found: false, stdlib: false, version: [3, 13] })
  })

  it.skipIf(!has('2.7.18'))('gives no answer from Python 2', async () => {
    expect(await askPythonFacts(pythonOf('2.7.18'), 'cv2')).toBeUndefined()
  })

  it('gives no answer from a program that is not there', async () => {
    expect(await askPythonFacts('/nonexistent/python', 'cv2')).toBeUndefined()
  })
})

describe('verifyPythonImport', () => {
  it('accepts a module its distribution provides and rejects one it does not', async () => {
    expect(await verifyPythonImport('python3', 'pip', 'pip')).toMatchObject({ ok: true, owners: ['pip'] })
    expect(await verifyPythonImport('python3', 'pip', 'PyYAML')).toMatchObject({ ok: false, owners: ['pip'] })
    expect(await verifyPythonImport('python3', 'no_such_module_xyz', 'no-such')).toEqual({ ok: false, owners: [] })
  })

  it.skipIf(!has('3.9.18'))('works before packages_distributions existed (3.9)', async () => {
    expect(await verifyPythonImport(pythonOf('3.9.18'), 'pip', 'pip')).toMatchObject({ ok: true })
  })
})
