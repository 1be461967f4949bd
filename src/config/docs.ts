import { MIRRORS, UPSTREAMS } from '../mirrors/index.js'
import type { Ecosystem } from '../mirrors/types.js'
import { listConfigFields, type ConfigField } from './fields.js'
import { PRECEDENCE } from './load.js'
import { withSection } from '../docs/section.js'

// docs/config.md, .resilientrc.example and the README's config section are rendered from the zod schema by
// `npm run docs:config` (scripts/config-docs.ts); test/unit/config/docs.test.ts fails when a file is stale.

const GENERATED = 'Generated from src/config/schema.ts by `npm run docs:config`; edit the schema, not this file.'
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')
const show = (value: unknown) => (value === undefined ? '—' : `\`${JSON.stringify(value)}\``)

/** An illustrative value for keys that have no default. */
function exampleFor(field: ConfigField): unknown {
  const [section, key] = field.path
  const ecosystem = section as Ecosystem
  if (field.path.length === 2 && ecosystem in UPSTREAMS) {
    if (key === 'index') return UPSTREAMS[ecosystem]
    if (key === 'mirrors') return MIRRORS[ecosystem].slice(0, 2).map(mirror => mirror.id)
    if (key === 'custom') return { corp: `https://${ecosystem}.corp.example/${ecosystem === 'pypi' ? 'simple' : ''}` }
    if (key === 'wheelhouse') return './wheels'
  }
  return undefined
}

function sectionOf(field: ConfigField): string {
  return field.path.length > 1 ? field.path.slice(0, -1).join('.') : ''
}

function grouped() {
  const { fields, sections } = listConfigFields()
  const order = ['', ...sections.map(section => section.key)]
  return order.map(key => ({ key, description: sections.find(section => section.key === key)?.description ?? '',
    fields: fields.filter(field => sectionOf(field) === key) })).filter(group => group.fields.length > 0)
}

export const LAYERS = [
  ['defaults', 'the schema, src/config/schema.ts (listed below)'],
  ['user config', '`$XDG_CONFIG_HOME/resilient/config.json`, else the platform\'s config directory (env-paths): `~/.config/resilient/config.json` on Linux, `~/Library/Preferences/resilient/config.json` on macOS, `%APPDATA%\\resilient\\Config\\config.json` on Windows. JSON; `resilient mirrors use/add/remove` write it.'],
  ['project config', 'the nearest of these from the working directory up to the repository root (`.git`) or the home directory: `package.json` `"resilient"` (an object; another shape is ignored), `.resilientrc` (JSON or YAML), `.resilientrc.json`, `.resilientrc.yaml`, `.resilientrc.yml`, `.config/resilientrc*`, and the code forms `.resilientrc.js/.ts/.mjs/.cjs`, `resilient.config.js/.ts/.mjs/.cjs`. Only for commands that talk to an index (read-only verbs such as `pip --version` load none). Code is run only once you trust the file (`resilient config trust`), and a data file that sends installs to a host outside the mirror catalog, loopback and your user config is used only once trusted too; `RESILIENT_TRUST_PROJECT_CONFIG=1` trusts the project (CI). World-writable directories such as `/tmp` are never searched. See docs/security.md.'],
  ['environment', '`RESILIENT_<KEY>`: the key\'s path in SCREAMING_SNAKE_CASE (`breaker.failureThreshold` → `RESILIENT_BREAKER_FAILURE_THRESHOLD`); booleans `1/0/true/false/yes/no/on/off`, lists comma-separated. Maps have no variable.'],
  ['command-line flags', '`--max-attempts <n>`, `--no-mirrors`, `--no-relay`, `--offline`; and `--mirror <name|url>` (repeatable), tried first in this run only.'],
] as const

export function renderConfigDocs(): string {
  const lines = ['# Configuration reference', '', `<!-- ${GENERATED} -->`, '', '## Where settings come from', '',
    `Precedence, lowest first: ${PRECEDENCE}.`, '', '| layer | where |', '| --- | --- |',
    ...LAYERS.map(([layer, where]) => `| ${layer} | ${cell(where)} |`), '',
    'Objects merge key by key (a project `pypi.index` keeps your own `pypi.mirrors`); lists and values are replaced whole.',
    '`resilient config` prints every effective value and where it came from; `resilient config --json` the same as JSON.',
    'A bad value stops resilient with exit 78 and a message naming the file (or variable), the key and what was expected.', '',
    'Not settings, but read from the environment: `RESILIENT_STATE_DIR` (where mirror health and learned fixes are kept;',
    'default `$XDG_STATE_HOME/resilient`, else `~/.local/state/resilient`), `XDG_CONFIG_HOME`, `XDG_STATE_HOME`.', '', '## Keys']
  for (const group of grouped()) {
    lines.push('', `### ${group.key ? `\`${group.key}\`` : 'Top level'}`, '')
    if (group.description) lines.push(group.description, '')
    lines.push('| key | type | default | environment | meaning |', '| --- | --- | --- | --- | --- |')
    for (const field of group.fields) {
      lines.push(`| \`${field.key}\` | ${cell(field.type)} | ${cell(show(field.defaultValue))} | ${field.env ? `\`${field.env}\`` : '—'} | ${cell(field.description)} |`)
    }
  }
  return `${lines.join('\n')}\n`
}

/** YAML (a .resilientrc may be YAML or JSON): defaults as values, keys without one commented out with an example. */
export function renderResilientrcExample(): string {
  const lines = [`# An example .resilientrc for resilient, documenting every key. ${GENERATED}`,
    '# Copy it to .resilientrc in a project (YAML or JSON) and keep what you change; the same keys, as JSON, go in the',
    '# user config (~/.config/resilient/config.json). Values shown are the defaults; commented keys have none.',
    `# Precedence, lowest first: ${PRECEDENCE}. Reference: docs/config.md`]
  for (const group of grouped()) {
    const active = group.fields.some(field => field.defaultValue !== undefined)
    const indent = group.key ? '  ' : ''
    lines.push('')
    if (group.key) lines.push(`# ${group.description}`, `${active ? '' : '# '}${group.key}:`)
    for (const field of group.fields) {
      const name = field.path.at(-1)
      const value = field.defaultValue ?? exampleFor(field)
      lines.push(`${indent}# ${field.description} (${field.type}${field.env ? `; ${field.env}` : ''})`)
      const line = `${name}: ${value === undefined ? '' : JSON.stringify(value)}`.trimEnd()
      lines.push(field.defaultValue !== undefined ? `${indent}${line}` : active ? `${indent}# ${line}` : `#${indent} ${line}`)
    }
  }
  return `${lines.join('\n')}\n`
}

/** The README's short form: precedence, files, and one row per key. */
export function renderReadmeConfig(): string {
  const { fields } = listConfigFields()
  return ['', `Settings come from, lowest precedence first: ${PRECEDENCE}. `
    + 'The user config is `~/.config/resilient/config.json` (`$XDG_CONFIG_HOME`); the project config is the nearest '
    + '`.resilientrc` (JSON or YAML), `.resilientrc.json`, `resilient.config.js` or package.json `"resilient"`; code, and a file '
    + 'sending installs to a host of its own, is used only once you trust it (`resilient config trust`, docs/security.md). `resilient config` shows '
    + 'every effective value and where it came from. Every key is in [docs/config.md](docs/config.md) and `.resilientrc.example`; '
    + 'how mirrors are chosen, remembered (health, circuit breaker, what fixed what), tested and used offline is in '
    + '[docs/mirrors.md](docs/mirrors.md).', '',
  '| key | default | environment |', '| --- | --- | --- |',
  ...fields.map(field => `| \`${field.key}\` | ${cell(show(field.defaultValue))} | ${field.env ? `\`${field.env}\`` : '—'} |`), ''].join('\n')
}

/** Replaces the text between `<!-- config:start -->` and `<!-- config:end -->`. */
export function withReadmeConfig(readme: string): string {
  return withSection(readme, 'config', renderReadmeConfig())
}
