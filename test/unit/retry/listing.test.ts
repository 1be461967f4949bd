import { describe, expect, it } from 'vitest'
import { listsPackage } from '../../../src/retry/listing.js'

describe('does an index page list the package?', () => {
  const page = '<a href="/files/demo_pkg-1.0-py3-none-any.whl#sha256=1">demo_pkg-1.0-py3-none-any.whl</a><br/>\n<a href="/x">Demo.Pkg-1.0.1.tar.gz</a>'
  it('PEP 503: any file of the project, in any case and separators', () => expect(listsPackage('pypi', page, 'demo-pkg')).toBe(true))
  it('PEP 503: the exact version, wheel or sdist', () => {
    expect(listsPackage('pypi', page, 'demo-pkg', '1.0')).toBe(true)
    expect(listsPackage('pypi', page, 'demo-pkg', '1.0.1')).toBe(true)
    expect(listsPackage('pypi', page, 'demo-pkg', '1')).toBe(false)
    expect(listsPackage('pypi', page, 'demo-pkg', '2.0')).toBe(false)
  })
  it('PEP 503: another project\'s files are not this one\'s', () => expect(listsPackage('pypi', page, 'other')).toBe(false))
  it('npm: the packument\'s exact version', () => {
    const packument = JSON.stringify({ versions: { '1.0.0': {} } })
    expect(listsPackage('npm', packument, 'x', '1.0.0')).toBe(true)
    expect(listsPackage('npm', packument, 'x', '2.0.0')).toBe(false)
    expect(listsPackage('npm', packument, 'x')).toBe(true)
  })
  it('cannot tell a range, a body it cannot parse, or another ecosystem', () => {
    expect(listsPackage('npm', '{"versions":{"1.0.0":{}}}', 'x', '^1')).toBeUndefined()
    expect(listsPackage('npm', 'not json', 'x')).toBeUndefined()
    expect(listsPackage('crates', '{}', 'x')).toBeUndefined()
  })
})
