import { describe, expect, it } from 'vitest'
import { detectNodeMissing } from '../../../src/autoinstall/detect-node.js'
import { fixture, missing, refused } from './fixture.js'

describe('detectNodeMissing on real Node v20 output', () => {
  it('maps a CommonJS subpath to its package, with the requiring file', () => {
    expect(missing(detectNodeMissing(fixture('node-cjs-subpath')))).toMatchObject({ ecosystem: 'node', reported: 'lodash/fp', name: 'lodash', importer: '/tmp/ri/a.js' })
  })

  it('keeps the scope of a scoped subpath', () => {
    expect(missing(detectNodeMissing(fixture('node-cjs-scoped')))).toMatchObject({ reported: '@scope/pkg/sub', name: '@scope/pkg' })
  })

  it('reads the ESM form', () => {
    expect(missing(detectNodeMissing(fixture('node-esm-package')))).toMatchObject({ name: 'chalk', importer: '/tmp/ri/d.mjs' })
  })

  it('reads tsx output (TypeScript through its CJS hook)', () => {
    expect(missing(detectNodeMissing(fixture('tsx-esm-package')))).toMatchObject({ name: 'chalk', importer: '/tmp/ri/t.ts' })
  })

  it.each([
    ['node-cjs-relative', /path or URL/],
    ['node-entry-missing', /does not exist/],
    ['node-esm-file', /does not exist/],
    ['node-prefix-only-builtin', /builtin/],
    ['node-unknown-builtin', /no such builtin/],
    ['node-dependency-missing', /dependency is missing "left-pad"/],
  ])('refuses %s', (name, reason) => {
    expect(refused(detectNodeMissing(fixture(name)))?.reason).toMatch(reason)
  })

  it('suggests the node: prefix for a prefix-only builtin', () => {
    expect(refused(detectNodeMissing(fixture('node-prefix-only-builtin')))?.hint).toMatch(/node:test/)
  })

  it('ignores a caught module error when the script dies of something else', () => {
    expect(detectNodeMissing(fixture('node-caught-then-other'))).toBeUndefined()
  })

  it('reads Bun and Yarn PnP messages', () => {
    expect(missing(detectNodeMissing('error: Cannot find package "long" from "/app/tf.node.js"\n'))).toMatchObject({ name: 'long', importer: '/app/tf.node.js' })
    const pnp = 'Error: Your application tried to access left-pad, but it isn\'t declared in your dependencies; this makes the require call ambiguous and unsound.\n'
    expect(refused(detectNodeMissing(pnp))?.hint).toBe('Add it with yarn add left-pad.')
  })

  it('finds nothing in Python output', () => {
    expect(detectNodeMissing(fixture('py311-plain'))).toBeUndefined()
  })
})
