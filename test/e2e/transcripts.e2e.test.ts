import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { command, itNeeding } from '../helpers/requirements.js'
import { comparable, markedBlocks, unmarkedTranscripts } from '../support/transcripts/doc-blocks.js'
import { ILLUSTRATIVE } from '../support/transcripts/illustrative.js'
import { SCENARIOS } from '../support/transcripts/scenarios.js'

// Docs examples that cannot rot: each transcript of README.md and docs/ is a real run's output (run again here and
// compared, durations aside) or marked illustrative, with its reason, in one list.
const root = fileURLToPath(new URL('../../', import.meta.url))
const DOCUMENTS = ['README.md', ...readdirSync(`${root}docs`).filter(name => name.endsWith('.md')).map(name => `docs/${name}`),
  ...readdirSync(`${root}docs/tools`).filter(name => name.endsWith('.md')).map(name => `docs/tools/${name}`)]
const marked = DOCUMENTS.flatMap(file => markedBlocks(root, file))

describe('the transcripts of README.md and docs/', () => {
  for (const scenario of SCENARIOS) {
    itNeeding(scenario.needs.map(command), `${scenario.file} (${scenario.id}) is what a real run prints now`, async () => {
      const block = marked.find(each => each.file === scenario.file && each.id === scenario.id)
      expect(block, `${scenario.file} has no <!-- transcript: ${scenario.id} --> block`).toBeDefined()
      const fresh = await scenario.run(root)
      expect(comparable(block!.text), `${scenario.file}:${block!.line} is stale: npm run docs:transcripts -- ${scenario.id}`).toBe(comparable(fresh))
    }, 120_000)
  }

  it('has no transcript that is neither produced by a scenario nor marked illustrative', () => {
    expect(DOCUMENTS.flatMap(file => unmarkedTranscripts(root, file).map(line => `${file}:${line}`))).toEqual([])
    const ids = new Set(SCENARIOS.map(scenario => scenario.id))
    expect(marked.filter(block => block.id !== 'illustrative' && !ids.has(block.id)).map(block => `${block.file}: ${block.id}`)).toEqual([])
  })

  it('lists every illustrative transcript, with its reason, in one place', () => {
    const illustrative = marked.filter(block => block.id === 'illustrative').map(block => ({ file: block.file, starts: block.text.split('\n')[0] }))
    expect(illustrative).toEqual(ILLUSTRATIVE.map(({ file, starts }) => ({ file, starts })))
    for (const entry of ILLUSTRATIVE) expect(entry.why.length).toBeGreaterThan(20)
  })
})
