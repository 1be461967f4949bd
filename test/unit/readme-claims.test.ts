import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { overhead, renderSections, withSections } from '../../bench/render.mjs'
import { diagnose } from '../../src/diagnose/index.js'
import { RULES } from '../../src/diagnose/rules/index.js'
import { TOOLS } from '../../src/tools/index.js'
import { loadCorpus } from '../helpers/corpus.js'

// The figures README.md and docs/benchmarks.md state, against what measures them: `npm run bench -- --write` (its
// bench/results.json), the rules table and the corpus.
const read = (path: string) => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8')
const readme = read('README.md')
const results = JSON.parse(read('bench/results.json'))
const STALE = 'differs from bench/results.json: run `npm run bench -- --write` (one full run measures and renders every figure)'

describe('the benchmark figures in the documents', () => {
  it('README.md quotes bench/results.json', () => expect(readme, `README.md ${STALE}`).toBe(withSections(readme, renderSections(results))))
  it('docs/benchmarks.md quotes bench/results.json', () => {
    const docs = read('docs/benchmarks.md')
    expect(docs, `docs/benchmarks.md ${STALE}`).toBe(withSections(docs, renderSections(results)))
  })

  it('every figure section is filled, from one full run', () => {
    for (const name of ['bench-speed', 'bench-overhead']) expect(readme).toMatch(new RegExp(`<!-- ${name}:start -->[^<]+<!-- ${name}:end -->`))
    expect(read('docs/benchmarks.md')).toMatch(/<!-- bench-table:start -->\n[^<]+\n<!-- bench-table:end -->/)
    expect(Number.isFinite(results.a.plainFailureSeconds), 'the black-hole figure needs plain pip measured (no --quick)').toBe(true)
    // Figure (e): README's sentence and docs/benchmarks.md's table come from the unseen sets' measured parts.
    expect(results.e.unseen, 'bench/results.json has no unseen sets: run `node bench/accuracy.mjs --write`').toBeDefined()
    expect(readme).toMatch(/<!-- bench-diagnosis:start -->On pastes they had never seen[^<]+<!-- bench-diagnosis:end -->/)
    expect(read('docs/benchmarks.md')).toMatch(/<!-- bench-accuracy:start -->\nMeasured by [^<]+\n<!-- bench-accuracy:end -->/)
  })

  it('states the overhead as a ratio to the plain tool and to `node -e 0`', () => {
    const cost = overhead(results.b)
    expect(readme).toContain(`(${cost.toTool.toFixed(2)}× the plain tool)`)
    expect(readme).toContain(`${cost.toNode.toFixed(2)}× the start-up of a bare \`node -e 0\``)
  })
})

describe('the counts in README.md', () => {
  const numberWords = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty']

  it('names as many diagnosis rules as RULES holds', () => expect(/(\d+) diagnosis rules/.exec(readme)?.[1]).toBe(String(RULES.length)))

  it('names as many tools as TOOLS holds', () => {
    expect(/\*\*(\w+) tools\*\*/.exec(readme)?.[1]?.toLowerCase()).toBe(numberWords[Object.keys(TOOLS).length])
  })

  it('states the corpus size, and an accuracy no higher than measured', () => {
    const cases = loadCorpus(fileURLToPath(new URL('../../../shared/corpus/dev.jsonl', import.meta.url)))
    const [, size, percent] = /checked against (\d+) real failure logs from public issue threads \((\d+)% exact/.exec(readme) ?? []
    expect(Number(size)).toBe(cases.length)
    const correct = cases.filter(item => diagnose({ tool: item.tool, output: item.output }).category === item.label).length
    expect(Number(percent)).toBeLessThanOrEqual(Math.floor((100 * correct) / cases.length))
  })
})
