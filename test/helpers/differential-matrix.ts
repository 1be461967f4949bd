import { beforeAll, describe, expect, it } from 'vitest'
import { matrixEntries, runMatrix, type CaseResult, type MatrixEntry } from '../support/differential/run.js'
import type { Subject } from '../support/differential/subjects.js'
import { isolatedEnv } from './isolated-env.js'
import { CLI } from './run-cli.js'
import { envWithTool } from './npm-registries.js'

// The acceptance test of "never worse than the plain tool": each network condition of the matrix
// (test/support/differential/cases.ts) run by the real pip, npm, pnpm and yarn alone and through the built resilient,
// side by side against local servers with the same faults. Plain succeeds ⇒ resilient succeeds, in at most plain's
// time plus a slack (generous here: 8 s and half of plain's own time, as the machine is shared with the rest of the
// suite and may be loaded; `npm run bench` holds it to 3 s, one run at a time); plain fails ⇒ resilient succeeds or
// exits with the tool's status. No case may be lost. One e2e file per tool (test/e2e/differential-*.e2e.test.ts), so
// that the runner spreads the matrix over its workers like any other file.

const key = (entry: { case?: { id: string }; id?: string; tool: string; topology: string }) => `${entry.case?.id ?? entry.id} · ${entry.tool} · ${entry.topology}`

// npm waits 10 s, then 60 s, between its own retries: a dead registry, or resets it survives, cost it over a minute
// each way. The e2e keeps one such case (resets on a sole registry, a row of the issue); `npm run bench` runs them all.
const LONG = new Set(['dead · npm · sole', 'dead · npm · mirror', 'resets · npm · mirror'])

/** The matrix's rows for `tools`, each a test of its own. */
export function describeMatrix(tools: readonly Subject['tool'][]): void {
  const inE2e = (entry: MatrixEntry) => tools.includes(entry.tool) && !LONG.has(key(entry))
  const entries = matrixEntries().filter(inE2e)
  let results = new Map<string, CaseResult>()

  describe(`differential matrix (${tools.join(', ')}): the plain tool and resilient side by side`, () => {
    beforeAll(async () => {
      const env = (tool: string) => tool === 'pnpm' ? envWithTool('pnpm') : tool === 'yarn' ? envWithTool('yarn1') : isolatedEnv()
      // Two cases at a time (four tool runs): the other files of the suite run beside these.
      const all = await runMatrix({ cli: CLI, env, concurrency: 2, slackMs: 8000, slackShare: 0.5, only: inE2e })
      results = new Map(all.map(result => [key(result), result]))
      for (const result of all) console.log(`${result.verdict.padEnd(5)} ${key(result)}: ${result.why}, ${result.resilient.attempts} attempt(s)`)
    }, 600_000)

    it.each(entries.map(entry => [key(entry)]))('%s', name => {
      const result = results.get(name)!
      expect(result.verdict, `${result.why}\n--- resilient's output:\n${result.resilient.output.slice(-3000)}`).not.toBe('lost')
    })
  })
}
