// `npm run docs:transcripts`: runs every scenario of test/support/transcripts/scenarios.ts (the built CLI against
// servers on 127.0.0.1) and writes what it printed into the block of README.md or docs/ marked with its id.
// `-- --check` only compares (what test/e2e/transcripts.e2e.test.ts does); `-- <id>...` runs those alone.
import { fileURLToPath } from 'node:url'
import { comparable, markedBlocks, writeBlock } from '../test/support/transcripts/doc-blocks.js'
import { SCENARIOS } from '../test/support/transcripts/scenarios.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const check = process.argv.includes('--check')
const only = process.argv.slice(2).filter(arg => !arg.startsWith('--'))
let stale = 0
for (const scenario of SCENARIOS.filter(each => !only.length || only.includes(each.id))) {
  const text = await scenario.run(root)
  const block = markedBlocks(root, scenario.file).find(each => each.id === scenario.id)
  const same = block !== undefined && comparable(block.text) === comparable(text)
  if (check) {
    if (!same) stale++
    process.stdout.write(`${same ? 'same' : 'STALE'}  ${scenario.file}: ${scenario.id}\n${same ? '' : `${text}\n\n`}`)
  } else {
    writeBlock(root, scenario.file, scenario.id, text)
    process.stdout.write(`wrote ${scenario.file}: ${scenario.id}\n`)
  }
}
process.exitCode = stale ? 1 : 0
