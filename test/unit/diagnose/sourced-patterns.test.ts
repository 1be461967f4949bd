import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { CATALOG, type Message } from '../../support/catalog/index.js'
import { fillTemplate } from '../../support/catalog/fill.js'
import { alternatives } from '../../support/measure.js'
import { normalizeFailure } from '../../../src/diagnose/normalize.js'
import { RULES } from '../../../src/diagnose/rules/index.js'

// Every keyword a rule matches must be the tool's own wording: a message of the catalog (formed in the file it cites)
// or a real output kept as a fixture (captured here, or copied from a public issue thread with its source). Rules read
// their patterns through `linesMatching`, whose `forget` hook (src/diagnose/types.ts) shows each pattern used; the
// rules are run on every catalog message and fixture, and each top-level alternative of each pattern must match one.
const FIXTURES = fileURLToPath(new URL('../../fixtures/output', import.meta.url))

const catalogTexts = Object.values(CATALOG).flat().map((message: Message) => fillTemplate(message.template, (_, values) => values[0]!))
const fixtureTexts = readdirSync(FIXTURES).flatMap(tool => readdirSync(join(FIXTURES, tool)).map(file => readFileSync(join(FIXTURES, tool, file), 'utf8')))
const supports = [...catalogTexts, ...fixtureTexts].map(output => normalizeFailure({ tool: null, output }).text)

/** `rule-id  alternative` for every alternative of every pattern the rules read, supported or not. */
function alternativesRead(): Map<string, boolean> {
  const patterns = new Map<string, { id: string; pattern: RegExp }>()
  for (const text of supports) {
    const view = normalizeFailure({ tool: null, output: text })
    for (const rule of RULES) {
      const forget = (pattern: RegExp) => (patterns.set(`${rule.id} ${pattern.flags}/${pattern.source}`, { id: rule.id, pattern }), pattern)
      try { rule.match({ ...view, forget }) } catch { /* a broken rule is the registry test's concern */ }
    }
  }
  const read = new Map<string, boolean>()
  for (const { id, pattern } of patterns.values()) {
    for (const alternative of alternatives(pattern.source)) {
      const each = new RegExp(alternative, `${pattern.flags.replace(/[gy]/g, '')}m`)
      read.set(`${id}  ${alternative}`, supports.some(text => each.test(text)))
    }
  }
  return read
}

it("matches each rule's keywords to a catalog message or a real output", () => {
  const read = alternativesRead()
  const unsourced = [...read].filter(([, supported]) => !supported).map(([key]) => key).sort()
  // A new keyword needs its source (a catalog entry citing the file and version that form it, or a fixture).
  expect(unsourced).toEqual([])
})
