// `npm run docs:tools`: renders the README's table of tools from the adapters (src/tools/docs.ts).
// test/unit/registry-tools.test.ts fails when it is stale.
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { withReadmeTools } from '../src/tools/docs.js'

const readme = fileURLToPath(new URL('../README.md', import.meta.url))
writeFileSync(readme, withReadmeTools(readFileSync(readme, 'utf8')))
process.stdout.write('wrote the README table of tools\n')
