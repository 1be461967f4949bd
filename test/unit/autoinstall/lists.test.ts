import { describe, expect, it } from 'vitest'
import { NODE_ALLOWLIST } from '../../../src/autoinstall/node-allowlist.js'
import { packageOfSpecifier } from '../../../src/autoinstall/node-specifier.js'
import { lookupPythonAllowlist, PYTHON_ALLOWLIST } from '../../../src/autoinstall/python-allowlist.js'
import { pythonNameProblem } from '../../../src/autoinstall/python-special.js'
import { refusedNodePackage, refusedPythonImport, refusedPythonProject } from '../../../src/autoinstall/refused.js'

// The lists are data reviewed by hand; these checks keep them from contradicting each other.
describe('the reviewed lists', () => {
  it('has a few dozen Python entries with valid names and a reason each', () => {
    expect(PYTHON_ALLOWLIST.length).toBeGreaterThan(60)
    for (const entry of PYTHON_ALLOWLIST) {
      expect(entry.key).toMatch(/^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$/)
      expect(entry.package).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9]$/)
      expect(entry.why.length).toBeGreaterThan(5)
    }
  })

  it('never sends a Python import to a refused project', () => {
    for (const entry of PYTHON_ALLOWLIST) expect(refusedPythonProject(entry.package), entry.key).toBeUndefined()
  })

  it('never lists a name that is refused as an import', () => {
    for (const entry of PYTHON_ALLOWLIST) expect(refusedPythonImport(entry.key.split('.')[0]!), entry.key).toBeUndefined()
  })

  it('lists no special name except distutils (setuptools provides it)', () => {
    const special = PYTHON_ALLOWLIST.filter(entry => pythonNameProblem(entry.key.split('.')[0]!)).map(entry => entry.key)
    expect(special).toEqual(['distutils'])
  })

  it('matches by longest prefix', () => {
    expect(lookupPythonAllowlist('google.cloud.storage.blob')?.package).toBe('google-cloud-storage')
    expect(lookupPythonAllowlist('google.cloud')).toBeUndefined()
    expect(lookupPythonAllowlist('ruamel.yaml.comments')?.package).toBe('ruamel.yaml')
  })

  it('has only valid, non-builtin, non-refused Node names', () => {
    for (const name of NODE_ALLOWLIST) {
      expect(packageOfSpecifier(name), name).toEqual({ package: name })
      expect(refusedNodePackage(name), name).toBeUndefined()
    }
  })

  it('suggests allowed names for refused ones', () => {
    expect(refusedNodePackage('crossenv')?.use).toBe('cross-env')
    expect(NODE_ALLOWLIST.has('cross-env')).toBe(true)
    expect(refusedPythonProject('Scikit_Learn')).toBeUndefined()
    expect(refusedPythonProject('sklearn')?.use).toBe('scikit-learn')
  })
})
