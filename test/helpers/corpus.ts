import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** A labelled failure output of the development corpus (../shared/corpus/README.md). */
export interface Case {
  id: string
  tool: string
  label: string
  output: string
}

const FIXTURES = fileURLToPath(new URL('../fixtures/output', import.meta.url))

/**
 * Outside this workplace there is no ../shared: the same 209 cases are kept as fixtures, `<tool>/<id>-<label>.txt`,
 * each with a first line naming its corpus id (captured-*.txt files are our own captures, not corpus cases).
 */
function corpusFromFixtures(): Case[] {
  return readdirSync(FIXTURES).flatMap(tool => readdirSync(join(FIXTURES, tool))
    .filter(file => /^(?:py|cj)-/.test(file))
    .map(file => {
      const [first, ...rest] = readFileSync(join(FIXTURES, tool, file), 'utf8').split('\n')
      const id = / dev\.jsonl (\S+) /.exec(first ?? '')?.[1] ?? file
      const label = / label (\S+)/.exec(first ?? '')?.[1] ?? ''
      return { id, tool, label, output: rest.join('\n') }
    }))
}

/** The corpus at `jsonl` when it is there (this workplace's ../shared), else its copies in test/fixtures/output. */
export function loadCorpus(jsonl: string): Case[] {
  return existsSync(jsonl) ? readFileSync(jsonl, 'utf8').split('\n').filter(Boolean).map(line => JSON.parse(line) as Case) : corpusFromFixtures()
}
