import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CATALOG, type CatalogTool, type Message } from '../../support/catalog/index.js'
import { decorate, DECORATIONS, fillTemplate, placeholdersOf, PLACEHOLDER_VALUES, type Placeholder } from '../../support/catalog/fill.js'
import { diagnose, guessTool } from '../../../src/diagnose/index.js'
import { normalizeFailure } from '../../../src/diagnose/normalize.js'
import { RULES } from '../../../src/diagnose/rules/index.js'
import { expectedRule, ruleForStatus } from '../../support/catalog/expected.js'

// Each message of the catalog (the tools' own templates) is filled with varied values, decorated as CI logs and
// terminals show it, and must be claimed by its rule, with the tool known (the retry loop) and unknown (`why`).
const RUNS = 12

/** The values and decorations one run uses, drawn by fast-check. */
function caseOf(message: Message) {
  const names = placeholdersOf(message.template)
  return fc.record({
    picks: fc.tuple(...names.map(name => fc.nat(PLACEHOLDER_VALUES[name].length - 1))),
    ci: fc.constantFrom(...DECORATIONS.ci),
    colour: fc.constantFrom(...DECORATIONS.colour),
    ending: fc.constantFrom(...DECORATIONS.ending),
  }).map(({ picks, ci, colour, ending }) => {
    const chosen = new Map(names.map((name, index) => [name, picks[index]!]))
    const line = fillTemplate(message.template, (name: Placeholder, values) => values[chosen.get(name) ?? 0]!)
    return { line, output: decorate(line, message.prefix ?? '', { ci, colour, ending }) }
  })
}

const toolOf = (catalog: CatalogTool): string | null => (catalog === 'system' ? null : catalog)
/** The wrapped tools that print a catalog's messages: pipx runs pip, micromamba is libmamba like mamba. */
const RUN_BY: Partial<Record<CatalogTool, string[]>> = { pip: ['pip', 'pipx'], mamba: ['mamba', 'micromamba'], system: ['npm'] }
const toolsOf = (catalog: CatalogTool): (string | null)[] => RUN_BY[catalog] ?? [toolOf(catalog)]

describe('the message catalog, filled and decorated', () => {
  for (const [catalog, messages] of Object.entries(CATALOG) as [CatalogTool, Message[]][]) {
    describe(catalog, () => {
      for (const message of messages) {
        it(`${message.rule} claims "${message.template.slice(0, 90)}"`, () => {
          fc.assert(fc.property(caseOf(message), ({ line, output }) => {
            // The retry loop knows the tool; `why` guesses it from the text, or reads with every rule.
            for (const tool of new Set([...toolsOf(catalog), null, guessTool(output)])) {
              const diagnosis = diagnose({ tool, output, proxies: message.proxies })
              expect(diagnosis.ruleId, `${JSON.stringify(output)} (tool ${tool}): ${diagnosis.evidence.join(' / ')}`).toBe(expectedRule(message, line))
            }
          }), { numRuns: RUNS, seed: 13 })
        })
      }
    })
  }
})

// Rules that read the conclusion a tool prints after the cause (uv's "requirements are unsatisfiable", poetry's
// "version solving failed", conda's "HTTP 000" and libmamba's "Download error (N)"): the rule of the cause comes first
// in RULES and claims the message; these may match it too.
// any-connection reads reqwest's wrappers that uv and pixi chain above every network cause ("error sending request for
// url", "client error (Connect)", "error decoding response body"); pip-resolution-impossible reads pdm's
// "[ResolutionImpossible]: Unable to find a resolution" conclusion.
const CONCLUSIONS = new Set(['uv-no-solution', 'poetry-solver-problem', 'conda-unsatisfiable', 'conda-connection-failed', 'any-connection', 'pip-resolution-impossible'])

/** Rules that also match: later in RULES and either a conclusion or of the same category (any-lock-busy after conda-lock-busy). */
function tolerated(expected: string, other: string): boolean {
  const order = (id: string) => RULES.findIndex(rule => rule.id === id)
  const category = (id: string) => RULES.find(rule => rule.id === id)?.category
  // Authentication before absence: a tool that got a 401/403 then says the package was not found (uv's resolver).
  const absenceAfterAuth = category(expected) === 'http_auth' && category(other) === 'package_not_found'
  return order(other) > order(expected) && (CONCLUSIONS.has(other) || category(other) === category(expected) || absenceAfterAuth)
}

describe('one rule per message', () => {
  for (const [catalog, messages] of Object.entries(CATALOG) as [CatalogTool, Message[]][]) {
    for (const message of messages) {
      it(`${catalog}: only ${message.rule} matches "${message.template.slice(0, 80)}"`, () => {
        const line = fillTemplate(message.template, (_, values) => values[0]!)
        const failure = normalizeFailure({ tool: toolOf(catalog), output: `${message.prefix ?? ''}${line}`, proxies: message.proxies })
        const claimants = RULES.filter(rule => rule.tools === 'any' || !failure.tool || rule.tools.includes(failure.tool))
          .filter(rule => rule.match(failure)).map(rule => rule.id)
        const expected = expectedRule(message, line)
        expect(claimants.filter(id => !tolerated(expected, id))).toEqual([expected])
      })
    }
  }
})

it('cites a source file and version for every message, and covers every wrapped tool family', () => {
  const all = Object.values(CATALOG).flat()
  for (const message of all) {
    expect(message.source.file).toMatch(/\S/)
    expect(message.source.version).toMatch(/\d/)
  }
  expect(all.length).toBeGreaterThan(100)
})

// Rules that read what resilient itself saw (Failure.relayed: the relay's count of each source's answers), never the
// tool's words: no message of a tool is theirs. Tested with the relay's own counts (any-source-server-error.test.ts).
const READ_NO_TOOL_TEXT = new Set(['any-source-server-error'])

it('cites a message for every rule (a status message cites the rules its status chooses)', () => {
  const cited = new Set(Object.values(CATALOG).flat().flatMap(message => (message.rule === 'status'
    ? [401, 404, 408, 429, 500].map(ruleForStatus) : [message.rule])))
  expect(RULES.map(rule => rule.id).filter(id => !cited.has(id) && !READ_NO_TOOL_TEXT.has(id))).toEqual([])
})

it('names only rules that exist', () => {
  const ids = new Set(RULES.map(rule => rule.id))
  for (const message of Object.values(CATALOG).flat()) if (message.rule !== 'status') expect(ids.has(message.rule), message.rule).toBe(true)
})
