import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { renderKnobsTable, renderToolsTable, verifiedBy, withReadmeTools, withToolsReadmeKnobs } from '../../src/tools/docs.js'
import { TOOLS } from '../../src/tools/index.js'

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url))

describe('the README table of tools', () => {
  it('is what the adapters say (npm run docs:tools writes it)', () => {
    const readme = readFileSync(root('README.md'), 'utf8')
    expect(withReadmeTools(readme), 'README.md tools section is stale: run npm run docs:tools').toBe(readme)
  })

  it('docs/tools/README.md lists each tool\'s knobs and config files from the same data (npm run docs:tools)', () => {
    const page = readFileSync(root('docs/tools/README.md'), 'utf8')
    expect(withToolsReadmeKnobs(page), 'docs/tools/README.md knobs section is stale: run npm run docs:tools').toBe(page)
    expect(renderKnobsTable()).toContain('| pip | `--timeout`, `--default-timeout`, `--retries`; `PIP_TIMEOUT`')
  })

  it('has one row per adapter, linked to its doc page, saying how it is verified', () => {
    const rows = renderToolsTable().trim().split('\n').slice(2)
    expect(rows).toHaveLength(Object.keys(TOOLS).length)
    for (const [name, adapter] of Object.entries(TOOLS)) {
      const row = rows.find(line => line.startsWith(`| [${name}](docs/tools/${name}.md) |`))
      expect(row, name).toBeDefined()
      expect(existsSync(root(`docs/tools/${name}.md`)), `docs/tools/${name}.md`).toBe(true)
      expect(row!.endsWith(`| ${verifiedBy(adapter)} |`), name).toBe(true)
    }
  })

  it('claims "real" only for a tool with an e2e suite of its own and a tested version, "replay" only with a fake on PATH', () => {
    for (const [name, adapter] of Object.entries(TOOLS)) {
      expect(existsSync(root(`test/e2e/${name}.e2e.test.ts`)), `test/e2e/${name}.e2e.test.ts`).toBe(true)
      if (adapter.verified === 'real') expect('testedWith' in adapter && adapter.testedWith, name).toBeTruthy()
      else expect(existsSync(root(`test/e2e/bin/${name}`)), `test/e2e/bin/${name}`).toBe(true)
    }
  })
})
