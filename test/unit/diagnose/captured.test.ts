import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { diagnose } from '../../../src/diagnose/index.js'
import { CATEGORIES, type Category } from '../../../src/diagnose/types.js'
import { fixture } from './rule-cases.js'

// Real outputs captured from cargo, go, bun, yarn and npm against local servers (the corpus has no cargo, go or bun
// case). Each file is named captured-<category>[-detail].txt after the cause the setup produced.
const ROOT = new URL('../../fixtures/output/', import.meta.url)
const captured = readdirSync(fileURLToPath(ROOT)).flatMap(tool => readdirSync(fileURLToPath(new URL(`${tool}/`, ROOT)))
  .filter(name => name.startsWith('captured-')).map(name => `${tool}/${name.replace(/\.txt$/, '')}`))

function expectedCategory(name: string): Category {
  const slug = name.split('/')[1]!.replace(/^captured-/, '').replaceAll('-', '_')
  const category = CATEGORIES.find(candidate => slug === candidate || slug.startsWith(`${candidate}_`))
  if (!category) throw new Error(`${name} does not name a category`)
  return category
}

describe('outputs captured from the real tools against local fault servers', () => {
  it('has captures for cargo, go and bun', () => {
    for (const tool of ['cargo', 'go', 'bun']) expect(captured.some(name => name.startsWith(`${tool}/`))).toBe(true)
  })
  for (const name of captured) {
    it(`classifies ${name} as ${expectedCategory(name)}`, () => {
      const diagnosis = diagnose(fixture(name))
      expect(diagnosis.category, `rule ${diagnosis.ruleId}: ${diagnosis.evidence.join(' / ')}`).toBe(expectedCategory(name))
    })
  }
})
