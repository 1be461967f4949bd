import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { DEFAULT_REMEDIES } from '../../src/diagnose/remedies.js'
import { RULES } from '../../src/diagnose/rules/index.js'
import { DIAGNOSED_TOOLS } from '../../src/diagnose/tool-guess.js'
import { TOOLS } from '../../src/tools/index.js'
import type { Rule } from '../../src/diagnose/types.js'

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
