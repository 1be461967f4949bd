import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { diagnose, guessTool } from '../../../src/diagnose/index.js'
import { loadCorpus } from '../../helpers/corpus.js'

// The development corpus (../shared/corpus/README.md): 209 real failure outputs labelled by root cause. A held-out
// set of the same kind judges the classifier later, so this test reports where it errs, not only how often.
// CORPUS_JSONL points at another labelled set of the same format (a held-out set) to measure it the same way.
const CORPUS = process.env.CORPUS_JSONL ?? fileURLToPath(new URL('../../../../shared/corpus/dev.jsonl', import.meta.url))
const THRESHOLD = 0.9

function tally(rows: { key: string; ok: boolean }[]): string {
  const groups = new Map<string, { ok: number; all: number }>()
  for (const { key, ok } of rows) {
    const group = groups.get(key) ?? { ok: 0, all: 0 }
    group.all++
    if (ok) group.ok++
    groups.set(key, group)
  }
  return [...groups].sort(([a], [b]) => a.localeCompare(b))
    .map(([key, { ok, all }]) => `  ${key.padEnd(20)} ${String(ok).padStart(3)}/${String(all).padEnd(3)} ${((100 * ok) / all).toFixed(0)}%`).join('\n')
}

describe('accuracy on the development corpus', () => {
  const cases = loadCorpus(CORPUS)
  it('finds the 209 corpus cases (../shared/corpus, or their copies in test/fixtures/output)', () => expect(cases.length).toBeGreaterThanOrEqual(209))

  it(`labels at least ${THRESHOLD * 100}% of the cases exactly (tool known, as in the retry loop)`, () => {
    const results = cases.map(item => ({ item, got: diagnose({ tool: item.tool, output: item.output }) }))
    const wrong = results.filter(({ item, got }) => got.category !== item.label)
    const confusion = new Map<string, string[]>()
    for (const { item, got } of wrong) {
      const pair = `${item.label} → ${got.category}`
      confusion.set(pair, [...(confusion.get(pair) ?? []), `${item.id} (${got.ruleId})`])
    }
    const accuracy = (results.length - wrong.length) / results.length
    console.log([`accuracy ${(100 * accuracy).toFixed(1)}% (${results.length - wrong.length}/${results.length})`,
      'per label:', tally(results.map(({ item, got }) => ({ key: item.label, ok: got.category === item.label }))),
      'per tool:', tally(results.map(({ item, got }) => ({ key: item.tool, ok: got.category === item.label }))),
      'confusions (expected → got):', ...[...confusion].map(([pair, ids]) => `  ${pair}: ${ids.join(', ')}`)].join('\n'))
    expect(cases.length).toBeGreaterThan(200)
    expect(accuracy).toBeGreaterThanOrEqual(THRESHOLD)
  })

  it(`labels at least ${THRESHOLD * 100}% of the cases when the tool is guessed from the text (resilient why)`, () => {
    const results = cases.map(item => ({ item, guessed: guessTool(item.output) }))
    const correct = results.filter(({ item, guessed }) => diagnose({ tool: guessed, output: item.output }).category === item.label)
    const guessedRight = results.filter(({ item, guessed }) => guessed === item.tool || (guessed === 'yarn-berry' && item.tool === 'yarn'))
    console.log(`with guessed tools: ${correct.length}/${results.length}; tool guessed right ${guessedRight.length}/${results.length}; wrong guesses: ${
      results.filter(result => !guessedRight.includes(result)).map(({ item, guessed }) => `${item.id} ${item.tool}→${guessed}`).join(', ')}`)
    expect(correct.length / results.length).toBeGreaterThanOrEqual(THRESHOLD)
  })
})
