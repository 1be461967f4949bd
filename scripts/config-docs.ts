// `npm run docs:config`: renders docs/config.md, .resilientrc.example and the README's config section from the zod
// schema (src/config/schema.ts). test/unit/config/docs.test.ts fails when they are stale.
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { renderConfigDocs, renderResilientrcExample, withReadmeConfig } from '../src/config/docs.js'

const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url))

writeFileSync(root('docs/config.md'), renderConfigDocs())
writeFileSync(root('.resilientrc.example'), renderResilientrcExample())
writeFileSync(root('README.md'), withReadmeConfig(readFileSync(root('README.md'), 'utf8')))
process.stdout.write('wrote docs/config.md, .resilientrc.example and the README config section\n')
