import { describe, expect, it } from 'vitest'
import { closestName, editDistance } from '../../src/closest-name.js'
import { UnknownToolError } from '../../src/errors.js'
import { parseInvocation } from '../../src/tools/parse-invocation.js'

describe('closestName', () => {
  it('counts a swap of two neighbours as one edit', () => {
    expect(editDistance('nmp', 'npm')).toBe(1)
    expect(editDistance('pipp', 'pip')).toBe(1)
    expect(editDistance('kitten', 'sitting')).toBe(3)
  })
  it('names the closest within two edits, or nothing', () => {
    expect(closestName('nmp', ['pip', 'npm'])).toBe('npm')
    expect(closestName('PIPP', ['pip', 'npm'])).toBe('pip')
    expect(closestName('cargoo', ['cargo', 'go'])).toBe('cargo')
    expect(closestName('terraform', ['pip', 'npm'])).toBeUndefined()
  })
})

describe('a mistyped tool', () => {
  const error = (name: string) => {
    try {
      parseInvocation([name, 'install', 'x'], { PATH: '/nonexistent' }, { allowMissing: true })
    } catch (thrown) {
      return thrown as UnknownToolError
    }
    throw new Error(`${name} was accepted`)
  }
  it('gets "did you mean" with the tool it probably is, and exit 64', () => {
    expect(error('pipp').message).toBe('"pipp" is not a tool resilient knows. Did you mean pip?')
    expect(error('pnmp').message).toMatch(/Did you mean pnpm\?/)
    expect(error('pipp').exitCode).toBe(64)
  })
  it('gets no guess for a name far from every tool', () => expect(error('terraform').message).toBe('"terraform" is not a tool resilient knows.'))
})
