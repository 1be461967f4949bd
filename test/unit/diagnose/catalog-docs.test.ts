import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { renderCatalogTable } from '../../support/catalog/docs.js'

it('keeps the table of docs/diagnosis.md true to the catalog and the rules', () => {
  const docs = readFileSync(fileURLToPath(new URL('../../../docs/diagnosis.md', import.meta.url)), 'utf8')
  const table = /<!-- catalog:start -->\n([\s\S]*?)\n<!-- catalog:end -->/.exec(docs)?.[1]
  expect(table, 'docs/diagnosis.md has no catalog section').toBeDefined()
  expect(table).toBe(renderCatalogTable())
})
