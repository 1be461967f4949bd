import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { diagnose } from '../../src/diagnose/index.js'
import { statusOf } from '../../src/diagnose/http-status.js'
import { normalizeFailure } from '../../src/diagnose/normalize.js'
import { DEFAULT_REMEDIES } from '../../src/diagnose/remedies.js'
import { RULES } from '../../src/diagnose/rules/index.js'
import { DIAGNOSED_TOOLS } from '../../src/diagnose/tool-guess.js'
import { TOOLS } from '../../src/tools/index.js'
import type { Rule } from '../../src/diagnose/types.js'
import { CATALOG } from '../support/catalog/index.js'
import { fillTemplate } from '../support/catalog/fill.js'
import { fixture } from './diagnose/rule-cases.js'

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url))

/** The rules table of docs/diagnosis.md, as RULES says it should read (priority order). */
function renderRulesTable(rules: readonly Rule[]): string {
  const rows = rules.map(rule => {
    const remedy = rule.remedy ?? DEFAULT_REMEDIES[rule.category]
    const tools = rule.tools === 'any' ? 'any' : rule.tools.join(', ')
    return `| \`${rule.id}\` | ${tools} | \`${rule.category}\`: ${rule.summary} | ${remedy.kind} |`
  })
  return ['| rule | tools | what it catches | remedy |', '| --- | --- | --- | --- |', ...rows].join('\n')
}

describe('rules', () => {
  const files = readdirSync(root('src/diagnose/rules')).filter(name => name.endsWith('.ts') && name !== 'index.ts')

  it('lists every rule file in RULES, under the id its file is named for', () => {
    expect(RULES.map(rule => `${rule.id}.ts`).sort()).toEqual([...files].sort())
  })

  it('exports each rule under the camelCase of its id', () => {
    for (const rule of RULES) {
      const name = rule.id.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase())
      expect(readFileSync(root(`src/diagnose/rules/${rule.id}.ts`), 'utf8')).toContain(`export const ${name} = {`)
    }
  })

  it('gives every rule a unique id prefixed by a tool or `any`', () => {
    expect(new Set(RULES.map(rule => rule.id)).size).toBe(RULES.length)
    for (const rule of RULES) {
      const prefix = rule.id.split('-')[0]!
      if (rule.tools === 'any') expect(prefix).toBe('any')
      else expect([...rule.tools, 'any']).toContain(prefix)
    }
  })

  it('tests every rule against fixtures that exist', () => {
    for (const rule of RULES) {
      const test = root(`test/unit/diagnose/rules/${rule.id}.test.ts`)
      expect(existsSync(test), `${rule.id} has no test file`).toBe(true)
      const fixtures = readFileSync(test, 'utf8').match(/'[\w-]+\/(?:py|cj|ip|nw|captured)-[\w-]+'/g) ?? []
      expect(fixtures.length, `${rule.id} names no fixture`).toBeGreaterThan(0)
      for (const fixture of fixtures) expect(existsSync(root(`test/fixtures/output/${fixture.slice(1, -1)}.txt`)), fixture).toBe(true)
    }
  })

  it('has rules in the wording of every tool in TOOLS, and takes its name for `why --tool`', () => {
    for (const tool of Object.keys(TOOLS)) {
      expect(DIAGNOSED_TOOLS, tool).toContain(tool)
      expect(RULES.some(rule => rule.tools !== 'any' && rule.tools.includes(tool)), `no rule reads ${tool}'s wording`).toBe(true)
    }
  })

  it('keeps the table of rules in docs/diagnosis.md true to RULES', () => {
    const page = readFileSync(root('docs/diagnosis.md'), 'utf8')
    const table = /<!-- rules:start -->\n([\s\S]*?)\n<!-- rules:end -->/.exec(page)?.[1]
    expect(table, 'docs/diagnosis.md has no <!-- rules:start --> ... <!-- rules:end --> section').toBeDefined()
    expect(table!.split('\n').filter(line => line.startsWith('|')).join('\n')).toBe(renderRulesTable(RULES))
  })
})

describe('a missing package needs proof', () => {
  // Every output the rules are checked against: the fixtures (real captures and pastes), and the catalog's messages.
  const fixtures = readdirSync(root('test/fixtures/output')).flatMap(tool => readdirSync(root(`test/fixtures/output/${tool}`))
    .filter(name => name.endsWith('.txt')).map(name => `${tool}/${name.slice(0, -4)}`))
  const outputs = [
    ...fixtures.map(name => ({ name, failure: fixture(name) })),
    ...Object.entries(CATALOG).flatMap(([tool, messages]) => messages.map(message => ({ name: `${tool}: ${message.template.slice(0, 60)}`,
      failure: { tool: tool === 'system' ? null : tool, output: fillTemplate(message.template, (_, values) => values[0]!) } }))),
  ]
  const notFoundRules = RULES.filter(rule => rule.category === 'package_not_found')

  it('every package_not_found rule matches only with its proof: a 404/410 for the name on its evidence lines, or the index\'s listing', () => {
    expect(notFoundRules.length).toBeGreaterThan(5)
    let matched = 0
    for (const rule of notFoundRules) {
      for (const { name, failure } of outputs) {
        const match = rule.match(normalizeFailure(failure))
        if (!match) continue
        matched++
        const proof = match.facts?.absence
        expect(proof, `${rule.id} on ${name}`).toMatch(/^(?:status|listing)$/)
        if (proof === 'status') expect(match.evidence.some(line => [404, 410].includes(statusOf(line) ?? 0)), `${rule.id} on ${name}`).toBe(true)
      }
    }
    expect(matched).toBeGreaterThan(50)
  })

  it('diagnose() refuses the label to a rule that gives no proof, and says so under --verbose', () => {
    const careless: Rule = { id: 'any-careless', category: 'package_not_found', tools: 'any', summary: 'x', match: () => ({ evidence: ['Not found'] }) }
    const refused: string[] = []
    const diagnosis = diagnose({ tool: 'pip', output: 'ERROR: Not found' }, [careless, ...RULES], rule => refused.push(rule.id))
    expect(diagnosis.category).not.toBe('package_not_found')
    expect(refused).toEqual(['any-careless'])
  })

  it('no output whose words prove nothing comes out as package_not_found, whichever tool is named or guessed', () => {
    // Captured side by side: the same words after a 404 and after a 401, a 429 or a 503.
    const unproven = fixtures.filter(name => /\/captured-other-/.test(name))
    expect(unproven.length).toBeGreaterThanOrEqual(7)
    for (const name of unproven) {
      expect(diagnose(fixture(name)).category, name).toBe('other')
      expect(diagnose({ ...fixture(name), tool: null }).category, `${name}, tool unknown`).not.toBe('package_not_found')
    }
  })
})
