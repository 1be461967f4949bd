// `npm run docs:tools`: renders the README's table of tools from the adapters (src/tools/docs.ts).
// test/unit/registry-tools.test.ts fails when it is stale.
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { withReadmeTools, withToolsReadmeKnobs } from '../src/tools/docs.js'

const readme = fileURLToPath(new URL('../README.md', import.meta.url))
writeFileSync(readme, withReadmeTools(readFileSync(readme, 'utf8')))
const toolsReadme = fileURLToPath(new URL('../docs/tools/README.md', import.meta.url))
writeFileSync(toolsReadme, withToolsReadmeKnobs(readFileSync(toolsReadme, 'utf8')))
process.stdout.write('wrote the README table of tools and the knobs table of docs/tools/README.md\n')
