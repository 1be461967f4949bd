// npm run bench, accuracy part: label and retry-decision accuracy per tool, on sets the rules were not tuned on.
// (1) Leave-one-source-out over the development corpus (../shared/corpus/dev.jsonl, or its copies in
//     test/fixtures/output): the cases of each source repository are diagnosed with every keyword alternative
//     forgotten whose only support in the whole corpus is that repository and that no catalog message backs (the
//     wording a hand-written rule could only have learned from it). (2) The message catalog (src/diagnose/catalog),
//     written from the tools' sources: each template filled 8 times with seeded values and CI/colour decorations.
// The score on the whole tuned set is printed beside them for contrast; it is not the measure. docs/diagnosis.md.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { diagnose, RULES } from '../dist/index.js'
import { CATALOG, decorate, DECORATIONS, DEFAULT_REMEDIES, expectedRule, fillTemplate, isRetryableWith, normalizeFailure } from '../dist/testing.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const CORPUS = process.env.CORPUS_JSONL ?? join(ROOT, '../shared/corpus/dev.jsonl')

function corpus() {
  if (existsSync(CORPUS)) return readFileSync(CORPUS, 'utf8').split('\n').filter(Boolean).map(line => JSON.parse(line))
  const dir = join(ROOT, 'test/fixtures/output')
  return readdirSync(dir).flatMap(tool => readdirSync(join(dir, tool)).filter(file => !file.startsWith('captured-')).map(file => {
    const [first, ...rest] = readFileSync(join(dir, tool, file), 'utf8').split('\n')
    return { id: / (\w{2}-\d+) /.exec(first)?.[1], tool, label: / label (\S+)/.exec(first)?.[1], source: / source (\S+)/.exec(first)?.[1] ?? file, output: rest.join('\n') }
  }))
}

/** The top-level alternatives of a pattern: `a|b(c|d)|e` → a, b(c|d), e. */
function alternatives(source) {
  const parts = []
  let depth = 0, inClass = false, start = 0
  for (let i = 0; i < source.length; i++) {
    const c = source[i]
    if (c === '\\') { i++; continue }
    if (inClass) { if (c === ']') inClass = false; continue }
    if (c === '[') inClass = true
    else if (c === '(') depth++
    else if (c === ')') depth--
    else if (c === '|' && depth === 0) { parts.push(source.slice(start, i)); start = i + 1 }
  }
  parts.push(source.slice(start))
  return parts
}

/** The retry decision a label calls for (corpus README table), with the facts read for the conditional labels. */
function goldDecision(label, facts) {
  return isRetryableWith(label, DEFAULT_REMEDIES[label], facts)
}

function tally(rows) {
  const byTool = new Map()
  for (const row of [...rows, ...rows.map(row => ({ ...row, tool: 'all' }))]) {
    const t = byTool.get(row.tool) ?? { n: 0, label: 0, decision: 0 }
    t.n++; t.label += row.label ? 1 : 0; t.decision += row.decision ? 1 : 0
    byTool.set(row.tool, t)
  }
  return Object.fromEntries([...byTool].sort(([a], [b]) => (a === 'all' ? 1 : b === 'all' ? -1 : a.localeCompare(b)))
    .map(([tool, t]) => [tool, { cases: t.n, label: t.label / t.n, decision: t.decision / t.n }]))
}

function judge(item, diagnosis) {
  return { tool: item.tool, label: diagnosis.category === item.label, decision: diagnosis.retryable === goldDecision(item.label, diagnosis.facts) }
}

export function measureAccuracy() {
  const cases = corpus()
  const repo = item => String(item.source).split('#')[0]
  const texts = cases.map(item => ({ repo: repo(item), text: normalizeFailure({ tool: item.tool, output: item.output }).text }))
  const catalogTexts = Object.values(CATALOG).flat().map(message => fillTemplate(message.template, (_, values) => values[0])).join('\n')
  const support = new Map()
  /** The repositories whose cases an alternative matches, and whether a catalog message backs it. */
  const supportOf = (alternative, flags) => {
    const key = `${flags}/${alternative}`
    if (!support.has(key)) {
      let re
      try { re = new RegExp(alternative, `${flags.replace(/[gy]/g, '')}m`) } catch { re = null }
      support.set(key, re ? { repos: new Set(texts.filter(t => re.test(t.text)).map(t => t.repo)), catalog: re.test(catalogTexts) } : { repos: new Set(), catalog: true })
    }
    return support.get(key)
  }
  const forgetting = heldOut => {
    const cache = new Map()
    return pattern => {
      if (!cache.has(pattern)) {
        const kept = alternatives(pattern.source).filter(alt => {
          const { repos, catalog } = supportOf(alt, pattern.flags)
          return catalog || !(repos.size === 1 && repos.has(heldOut))
        })
        cache.set(pattern, kept.length ? new RegExp(kept.join('|'), pattern.flags) : /(?!)/)
      }
      return cache.get(pattern)
    }
  }
  const folds = new Map()
  for (const item of cases) folds.set(repo(item), [...(folds.get(repo(item)) ?? []), item])
  const foldRows = [...folds].flatMap(([heldOut, items]) => {
    const forget = forgetting(heldOut)
    return items.map(item => {
      const diagnosis = diagnose({ tool: item.tool, output: item.output, forget })
      if (process.env.ACCURACY_DEBUG && diagnosis.category !== item.label) console.error(`${item.id} ${item.tool} ${item.label} → ${diagnosis.category} (${diagnosis.ruleId}) ${heldOut}`)
      return judge(item, diagnosis)
    })
  })
  const tunedRows = cases.map(item => judge(item, diagnose({ tool: item.tool, output: item.output })))
  let seed = 13
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
  const pick = values => values[Math.floor(random() * values.length)]
  const categoryOf = id => RULES.find(rule => rule.id === id)?.category
  const catalogRows = Object.entries(CATALOG).flatMap(([tool, messages]) => messages.flatMap(message => Array.from({ length: 8 }, () => {
    const line = fillTemplate(message.template, (_, values) => pick(values))
    const output = decorate(line, message.prefix ?? '', { ci: pick(DECORATIONS.ci), colour: pick(DECORATIONS.colour), ending: pick(DECORATIONS.ending) })
    const item = { tool, label: categoryOf(expectedRule(message, line)) }
    return judge(item, diagnose({ tool: tool === 'system' ? null : tool, output, proxies: message.proxies }))
  })))
  return { sources: folds.size, folds: tally(foldRows), catalog: tally(catalogRows), tuned: tally(tunedRows) }
}

export function formatAccuracy(result) {
  const pct = x => `${(100 * x).toFixed(1)}%`.padStart(6)
  const table = (title, rows) => [title, ...Object.entries(rows).map(([tool, r]) => `    ${tool.padEnd(11)} ${String(r.cases).padStart(4)} cases  label ${pct(r.label)}  decision ${pct(r.decision)}`)]
  return [
    ...table(`(e) diagnosis, leave-one-source-out over the corpus (${result.sources} source repositories; wording learned only from the held-out source forgotten):`, result.folds),
    ...table('    diagnosis, message catalog from the tools\' sources (filled and decorated, 8 per template):', result.catalog),
    `    for contrast, the whole tuned corpus: label ${pct(result.tuned.all.label)}, decision ${pct(result.tuned.all.decision)} (not the measure)`,
  ].join('\n')
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(formatAccuracy(measureAccuracy()))
