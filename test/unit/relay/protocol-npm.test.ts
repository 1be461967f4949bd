import { describe, expect, it } from 'vitest'
import { NPM_PROTOCOL } from '../../../src/relay/protocol-npm.js'

describe('the npm registry\'s paths on the relay', () => {
  const route = (path: string) => NPM_PROTOCOL.route(path, 'GET')
  it('a tarball, scoped or not, is a file; a scoped one asked as @scope%2fname (yarn berry) is the same file', () => {
    expect(route('left-pad/-/left-pad-1.3.0.tgz')).toMatchObject({ kind: 'file', path: 'left-pad/-/left-pad-1.3.0.tgz' })
    expect(route('@acme/util/-/util-2.0.0.tgz')).toMatchObject({ kind: 'file', path: '@acme/util/-/util-2.0.0.tgz' })
    expect(route('@acme%2futil/-/util-2.0.0.tgz')).toMatchObject({ kind: 'file', path: '@acme/util/-/util-2.0.0.tgz' })
    expect(route('@acme%2Futil/-/util-2.0.0.tgz')).toMatchObject({ kind: 'file', path: '@acme/util/-/util-2.0.0.tgz' })
  })
  it('packuments are pages; the registry\'s own endpoints go to the index alone', () => {
    expect(route('@acme%2futil')).toMatchObject({ kind: 'page' })
    expect(route('left-pad')).toMatchObject({ kind: 'page' })
    expect(route('-/npm/v1/security/advisories/bulk')).toMatchObject({ kind: 'other' })
  })
})
