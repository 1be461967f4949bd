import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { renderConfigDocs, renderResilientrcExample, withReadmeConfig } from '../../../src/config/docs.js'
import { envNameOf, listConfigFields, parseEnvValue } from '../../../src/config/fields.js'
import { loadConfig } from '../../../src/config/load.js'
import { configSchema } from '../../../src/config/schema.js'

const read = (path: string) => readFileSync(fileURLToPath(new URL(`../../../${path}`, import.meta.url)), 'utf8')
const STALE = 'is stale: run `npm run docs:config` (it renders the docs from src/config/schema.ts)'

describe('config docs are generated from the schema', () => {
  it('docs/config.md matches the schema', () => expect(read('docs/config.md'), `docs/config.md ${STALE}`).toBe(renderConfigDocs()))
  it('.resilientrc.example matches the schema', () => expect(read('.resilientrc.example'), `.resilientrc.example ${STALE}`).toBe(renderResilientrcExample()))
  it("the README's config section matches the schema", () => expect(read('README.md'), `README.md config section ${STALE}`).toBe(withReadmeConfig(read('README.md'))))

  it('documents every key: each has a description, a row in docs/config.md and a line in .resilientrc.example', () => {
    const docs = read('docs/config.md')
    const example = read('.resilientrc.example')
    for (const field of listConfigFields().fields) {
      expect(field.description, field.key).not.toBe('')
      expect(docs).toContain(`| \`${field.key}\` |`)
      expect(example).toMatch(new RegExp(`^#? *${field.path.at(-1)}:`, 'm'))
    }
  })

  it('.resilientrc.example is a valid config as it stands, and with every commented key switched on', async () => {
    const example = renderResilientrcExample()
    const asIs = mkdtempSync(join(tmpdir(), 'resilient-example-'))
    writeFileSync(join(asIs, '.resilientrc'), example)
    expect((await loadConfig({ cwd: asIs, env: { HOME: asIs } })).config).toEqual(configSchema.parse({}))
    const full = mkdtempSync(join(tmpdir(), 'resilient-example-'))
    writeFileSync(join(full, '.resilientrc'), example.split('\n').map(line => line.replace(/^# ?(?=( {2})?[a-z][A-Za-z]*:)/, '')).join('\n'))
    // The example names a company index: a project file sending installs there is used once trusted.
    const { config } = await loadConfig({ cwd: full, env: { HOME: full, RESILIENT_TRUST_PROJECT_CONFIG: '1' } })
    expect(config.pypi?.wheelhouse).toBe('./wheels')
    expect(config.go?.mirrors).toEqual(['goproxy-cn', 'goproxy-io'])
  })
})

describe('config fields', () => {
  it('derive RESILIENT_* names from the key path', () => {
    expect(envNameOf(['breaker', 'failureThreshold'])).toBe('RESILIENT_BREAKER_FAILURE_THRESHOLD')
    expect(envNameOf(['maxAttempts'])).toBe('RESILIENT_MAX_ATTEMPTS')
    const byKey = Object.fromEntries(listConfigFields().fields.map(field => [field.key, field]))
    expect(byKey['pypi.custom']!.env).toBeUndefined()
    expect(byKey['pypi.wheelhouse']!.env).toBe('RESILIENT_PYPI_WHEELHOUSE')
    expect(byKey['conda.wheelhouse']).toBeUndefined()
  })

  it('parse environment values by type', () => {
    const byKey = Object.fromEntries(listConfigFields().fields.map(field => [field.key, field]))
    expect(parseEnvValue(byKey.offline!, 'on')).toBe(true)
    expect(parseEnvValue(byKey.offline!, '0')).toBe(false)
    expect(parseEnvValue(byKey.maxAttempts!, '6')).toBe(6)
    expect(parseEnvValue(byKey.maxAttempts!, 'six')).toBe('six')
    expect(parseEnvValue(byKey['pypi.mirrors']!, 'tuna, https://m.test/simple,')).toEqual(['tuna', 'https://m.test/simple'])
  })
})
