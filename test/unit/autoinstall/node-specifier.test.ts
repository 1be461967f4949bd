import { describe, expect, it } from 'vitest'
import { packageOfSpecifier } from '../../../src/autoinstall/node-specifier.js'

const name = (specifier: string) => {
  const result = packageOfSpecifier(specifier)
  return 'package' in result ? result.package : `refused: ${result.refused}`
}

describe('packageOfSpecifier', () => {
  it.each([
    ['lodash', 'lodash'], ['lodash/fp', 'lodash'], ['@scope/pkg', '@scope/pkg'], ['@scope/pkg/sub/deep', '@scope/pkg'],
    ['date-fns/locale', 'date-fns'], ['left.pad', 'left.pad'],
  ])('%s → %s', (specifier, expected) => expect(name(specifier)).toBe(expected))

  it.each([
    'fs', 'node:fs', 'fs/promises', 'node:test', 'test', 'sqlite', 'node:sqlite', 'test/reporters', 'child_process', 'async_hooks',
    'module', 'timers/promises', '_http_agent', 'sys', 'constants',
  ])('refuses the builtin %s', specifier => expect(name(specifier)).toMatch(/refused: .* builtin/))

  it.each(['./x', '../x', '/abs/x', 'C:\\x', 'file:///x', 'https://x.test/y.js', 'data:text/javascript,1', 'npm:left-pad'])(
    'refuses the path or URL %s', specifier => expect(name(specifier)).toMatch(/refused: .*path or URL/))

  it.each(['#internal', '~/lib', '@/components/x', '~lib'])('refuses the alias %s', specifier => expect(name(specifier)).toMatch(/refused: .*alias/))

  it.each(['React', '_private', '.hidden', '@Scope/pkg', '@scope', 'a b', '-g', '--no-ignore-scripts', '-', '@scope/-x'])('refuses the invalid name %s', specifier => expect(name(specifier)).toMatch(/refused: .*not a valid npm package name/))
})
