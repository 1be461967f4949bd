import { CATALOG, type Message } from './catalog/index.js'
import { decorate, DECORATIONS, fillTemplate } from './catalog/fill.js'
import { expectedRule } from './catalog/expected.js'
import { diagnose } from '../../src/diagnose/index.js'
import { commandArgv, couldContact, loopRetries } from './measure-decision.js'
import { normalizeFailure } from '../../src/diagnose/normalize.js'
import { DEFAULT_REMEDIES, isRetryableWith } from '../../src/diagnose/remedies.js'
import { RULES } from '../../src/diagnose/rules/index.js'
import type { Category, Diagnosis, Facts } from '../../src/diagnose/types.js'

// How well the rules do on failures they were not tuned on (`npm run bench`, docs/diagnosis.md): leave-one-source-out
// over a labelled corpus, with the wording learned only from the held-out source forgotten, and the message catalog
// filled with seeded values. Measurement only: the retry loop never loads this module.

export interface LabelledCase {
  id?: string
  tool: string
  label: Category
  /** `owner/repo#issue` or a page address: a fold holds one repository's cases. */
  source: string
  output: string
  /** The retry decision labelled with the case (the unseen sets of 2026-11-27); else the label's, by the host read. */
  retry?: boolean
  /** The command the output came from, when the case records it: the retry loop reads its index choice. */
  command?: string | null
}

export interface Tally {
  cases: number
  label: number
  decision: number
}

/** The top-level alternatives of a pattern: `a|b(c|d)|e` → a, b(c|d), e. */
export function alternatives(source: string): string[] {
  const parts: string[] = []
  let depth = 0
  let inClass = false
  let start = 0
  for (let index = 0; index < source.length; index++) {
    const char = source[index]
    if (char === '\\') index++
    else if (inClass) inClass = char !== ']'
    else if (char === '[') inClass = true
    else if (char === '(') depth++
    else if (char === ')') depth--
    else if (char === '|' && depth === 0) {
      parts.push(source.slice(start, index))
      start = index + 1
    }
  }
  return [...parts, source.slice(start)]
}

/** The retry decision a label calls for (docs/diagnosis.md), the facts deciding the two conditional labels. */
export function goldDecision(label: Category, facts: Facts): boolean {
  return isRetryableWith(label, DEFAULT_REMEDIES[label], facts)
}

/**
 * A case's verdicts. The decision is the retry loop's own (test/support/measure-decision.ts: planRun and decideNext on
 * this diagnosis), not the diagnosis's `retryable` summary of it; a tool the loop does not run keeps the summary.
 */
function judged(tool: string, label: Category | undefined, diagnosis: Diagnosis, retry?: boolean, argv?: readonly string[]) {
  const gold = retry ?? (label !== undefined ? goldDecision(label, diagnosis.facts) : undefined)
  const decision = loopRetries(tool, diagnosis, argv) ?? diagnosis.retryable
  return { tool, label: diagnosis.category === label, decision: gold !== undefined && decision === gold }
}

/** The families docs/diagnosis.md reports on: tools that share a wording or a wrapped tool. */
const FAMILY_OF: Record<string, string> = {
  pip: 'pip', pipx: 'pip', python: 'pip', npm: 'npm family', pnpm: 'npm family', yarn: 'npm family', 'yarn-berry': 'npm family',
  bun: 'npm family', node: 'npm family', uv: 'uv', conda: 'conda family', mamba: 'conda family', micromamba: 'conda family',
  pixi: 'conda family', poetry: 'poetry/pdm', pdm: 'poetry/pdm', cargo: 'cargo/go', go: 'cargo/go',
}

/** The same rows per tool family instead of per tool. */
export function byFamily(rows: Record<string, Tally>): Record<string, Tally> {
  const sums = new Map<string, Tally>()
  for (const [tool, row] of Object.entries(rows)) {
    const family = tool === 'all' ? 'all' : FAMILY_OF[tool] ?? 'other'
    const sum = sums.get(family) ?? { cases: 0, label: 0, decision: 0 }
    sums.set(family, { cases: sum.cases + row.cases, label: sum.label + row.label * row.cases, decision: sum.decision + row.decision * row.cases })
  }
  return Object.fromEntries([...sums].map(([family, sum]) => [family, { cases: sum.cases, label: sum.label / sum.cases, decision: sum.decision / sum.cases }]))
}

/** Per tool and `all`: cases, and the share labelled right and decided right. */
export function tally(rows: readonly { tool: string; label: boolean; decision: boolean }[]): Record<string, Tally> {
  const byTool = new Map<string, { cases: number; label: number; decision: number }>()
  for (const row of [...rows, ...rows.map(row => ({ ...row, tool: 'all' }))]) {
    const entry = byTool.get(row.tool) ?? { cases: 0, label: 0, decision: 0 }
    byTool.set(row.tool, { cases: entry.cases + 1, label: entry.label + Number(row.label), decision: entry.decision + Number(row.decision) })
  }
  return Object.fromEntries([...byTool].map(([tool, entry]) => [tool, { cases: entry.cases, label: entry.label / entry.cases, decision: entry.decision / entry.cases }]))
}

const repositoryOf = (item: LabelledCase) => item.source.split('#')[0]!

/**
 * Leave-one-source-out: each repository's cases are diagnosed with every keyword alternative forgotten whose only
 * support in the whole corpus is that repository and that no catalog message matches (what a hand-written rule could
 * only have learned from it). Order and fact logic are not forgotten: docs/diagnosis.md says what that means.
 */
export function leaveOneSourceOut(cases: readonly LabelledCase[], onMiss?: (item: LabelledCase, diagnosis: Diagnosis) => void): Record<string, Tally> {
  const texts = cases.map(item => ({ repository: repositoryOf(item), text: normalizeFailure({ tool: item.tool, output: item.output }).text }))
  const catalogText = Object.values(CATALOG).flat().map((message: Message) => fillTemplate(message.template, (_, values) => values[0]!)).join('\n')
  const support = new Map<string, { repositories: Set<string>; backed: boolean }>()
  const supportOf = (alternative: string, flags: string) => {
    const key = `${flags}/${alternative}`
    if (!support.has(key)) {
      const pattern = new RegExp(alternative, `${flags.replace(/[gy]/g, '')}m`)
      support.set(key, { repositories: new Set(texts.filter(entry => pattern.test(entry.text)).map(entry => entry.repository)), backed: pattern.test(catalogText) })
    }
    return support.get(key)!
  }
  const folds = new Map<string, LabelledCase[]>()
  for (const item of cases) folds.set(repositoryOf(item), [...(folds.get(repositoryOf(item)) ?? []), item])
  const rows = [...folds].flatMap(([heldOut, items]) => {
    const narrowed = new Map<RegExp, RegExp>()
    const forget = (pattern: RegExp): RegExp => {
      if (!narrowed.has(pattern)) {
        const kept = alternatives(pattern.source).filter(alternative => {
          const { repositories, backed } = supportOf(alternative, pattern.flags)
          return backed || !(repositories.size === 1 && repositories.has(heldOut))
        })
        narrowed.set(pattern, kept.length ? new RegExp(kept.join('|'), pattern.flags) : /(?!)/)
      }
      return narrowed.get(pattern)!
    }
    return items.map(item => {
      const diagnosis = diagnose({ tool: item.tool, output: item.output, forget })
      if (diagnosis.category !== item.label) onMiss?.(item, diagnosis)
      return judged(item.tool, item.label, diagnosis)
    })
  })
  return tally(rows)
}

/**
 * Every case diagnosed as the retry loop would (tool known), nothing forgotten: the score of a held-out set, or of the
 * whole tuned corpus for contrast. A case's own `retry` label, when it has one, is the gold decision. `onMiss` hears
 * each case whose label or decision is wrong.
 */
export function tunedScore(cases: readonly LabelledCase[], onMiss?: (item: LabelledCase, diagnosis: Diagnosis, right: { label: boolean; decision: boolean }) => void): Record<string, Tally> {
  return tally(cases.map(item => {
    const command = commandArgv(item.tool, item.command, item.output)
    const diagnosis = diagnose({ tool: item.tool, output: item.output, command })
    const row = judged(item.tool, item.label, diagnosis, item.retry, command)
    if (!row.label || !row.decision) onMiss?.(item, diagnosis, row)
    return row
  }))
}

/** Every catalog template filled `perTemplate` times with seeded values and decorations. */
export function catalogScore(perTemplate = 8, seed = 13): Record<string, Tally> {
  let state = seed
  const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!
  return tally(Object.entries(CATALOG).flatMap(([tool, messages]) => (messages as Message[]).flatMap(message => Array.from({ length: perTemplate }, () => {
    const line = fillTemplate(message.template, (name, values) => pick(name === 'host' ? values.filter(host => couldContact(tool, host)) : values))
    const output = decorate(line, message.prefix ?? '', { ci: pick(DECORATIONS.ci), colour: pick(DECORATIONS.colour), ending: pick(DECORATIONS.ending) })
    const diagnosis = diagnose({ tool: tool === 'system' ? null : tool, output, proxies: message.proxies })
    // The gold decision is the one the expected rule stands for (its own remedy, or its category's).
    const rule = RULES.find(candidate => candidate.id === expectedRule(message, line))
    const retry = rule && isRetryableWith(rule.category, rule.remedy ?? DEFAULT_REMEDIES[rule.category], diagnosis.facts)
    return judged(tool, rule?.category, diagnosis, retry)
  }))))
}
