// `npm run docs:mirrors`: renders docs/mirrors.md's table of the built-in mirror catalog (src/mirrors/docs.ts).
// test/unit/mirrors/catalog.test.ts fails when it is stale.
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { withMirrorCatalog } from '../src/mirrors/docs.js'

const page = fileURLToPath(new URL('../docs/mirrors.md', import.meta.url))
writeFileSync(page, withMirrorCatalog(readFileSync(page, 'utf8')))
process.stdout.write('wrote the mirror catalog table of docs/mirrors.md\n')
