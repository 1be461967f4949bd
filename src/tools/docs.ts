import { withSection } from '../docs/section.js'
import { TOOLS } from './index.js'
import type { ToolAdapter } from './types.js'

// The README's table of tools, from the adapters' data (`npm run docs:tools` writes it; test/unit/registry-tools.test.ts
// fails when it is stale): a new adapter appears in it with nothing else to edit.

/** How the adapter is tested: the real tool in e2e tests that CI runs, or captured output replayed by a fake. */
export function verifiedBy(adapter: Pick<ToolAdapter, 'name' | 'verified' | 'testedWith'>): string {
  return adapter.verified === 'real'
    ? `real tool e2e in CI (${adapter.testedWith ?? adapter.name})`
    : `replayed captured output (a fake \`${adapter.name}\` on PATH)`
}

export function renderToolsTable(tools: readonly ToolAdapter[] = Object.values(TOOLS)): string {
  const cell = (text: string) => text.replace(/\n/g, ' ')
  const rows = tools.map(tool => `| [${tool.name}](docs/tools/${tool.name}.md) | ${cell(tool.forms)} | ${cell(tool.mirrorMechanism)} | ${verifiedBy(tool)} |`)
  return ['| tool | forms | how a mirror is applied | verified |', '| --- | --- | --- | --- |', ...rows].join('\n') + '\n'
}

export function withReadmeTools(readme: string): string {
  return withSection(readme, 'tools', renderToolsTable())
}

/** docs/tools/README.md's table of each tool's timeout and retry settings and config files (ToolAdapter.knobs, configFiles). */
export function renderKnobsTable(tools: readonly ToolAdapter[] = Object.values(TOOLS)): string {
  const code = (items: readonly string[] = []) => items.map(item => `\`${item}\``).join(', ')
  const rows = tools.map(({ name, knobs, configFiles }) => {
    const yours = knobs ? [knobs.options && code(knobs.options.long), code(knobs.env), knobs.settings && `${code(knobs.settings)} in its config`].filter(Boolean).join('; ') : 'none'
    return `| ${name} | ${yours} | ${(configFiles?.names ?? []).join('; ').replace(/\|/g, '\\|') || '-'} |`
  })
  return ['| tool | its timeout and retry settings (never changed by resilient) | config files it reads |', '| --- | --- | --- |', ...rows].join('\n') + '\n'
}

export function withToolsReadmeKnobs(text: string): string {
  return withSection(text, 'knobs', renderKnobsTable())
}
