import * as z from 'zod/mini'
import { configSchema } from './schema.js'

/** One setting of the config schema, as the docs, the env loader and `resilient config` see it. */
export interface ConfigField {
  /** Dotted path: `breaker.failureThreshold`, `pypi.mirrors`. */
  key: string
  path: string[]
  kind: 'boolean' | 'number' | 'integer' | 'string' | 'enum' | 'string-list' | 'map' | 'other'
  /** Human form of the type: `integer 1–20`, `list of strings`. */
  type: string
  description: string
  /** The schema default; undefined when the key has none. */
  defaultValue: unknown
  /** Its RESILIENT_* override; absent for maps, which have no one-variable form. */
  env?: string
}

/** An object of settings (`breaker`, `pypi`): a heading in the docs. */
export interface ConfigSection {
  key: string
  description: string
}

type AnySchema = z.ZodMiniType & { _zod: { def: Record<string, unknown> & { type: string } } }

const descriptionOf = (schema: AnySchema): string => z.globalRegistry.get(schema)?.description ?? ''

/** Strips optional/default wrappers, keeping the first description found on the way in. */
function unwrap(schema: AnySchema): { inner: AnySchema; description: string } {
  let inner = schema
  let description = descriptionOf(schema)
  while (['optional', 'default', 'prefault', 'nullable', 'readonly'].includes(inner._zod.def.type)) {
    inner = inner._zod.def.innerType as AnySchema
    description ||= descriptionOf(inner)
  }
  return { inner, description }
}

function describeType(schema: AnySchema): Pick<ConfigField, 'kind' | 'type'> {
  const def = schema._zod.def
  switch (def.type) {
    case 'boolean': return { kind: 'boolean', type: 'boolean' }
    case 'string': return { kind: 'string', type: 'string' }
    case 'enum': return { kind: 'enum', type: `one of ${Object.values(def.entries as object).join(', ')}` }
    case 'array': return { kind: 'string-list', type: 'list of strings' }
    case 'record': return { kind: 'map', type: 'map of name → string' }
    case 'number': {
      // z.int() is a number whose format is `safeint`.
      const isInt = def.format === 'safeint'
      const checks = ((def.checks ?? []) as unknown as { _zod: { def: { check: string; value: number; inclusive: boolean } } }[]).map(check => check._zod.def)
      const low = checks.find(check => check.check === 'greater_than')
      const high = checks.find(check => check.check === 'less_than')
      const range = low && high ? ` ${low.value}–${high.value}` : low ? ` ${low.inclusive ? '≥' : '>'} ${low.value}` : high ? ` ${high.inclusive ? '≤' : '<'} ${high.value}` : ''
      return { kind: isInt ? 'integer' : 'number', type: `${isInt ? 'integer' : 'number'}${range}` }
    }
    default: return { kind: 'other', type: def.type }
  }
}

/** RESILIENT_ + the path in SCREAMING_SNAKE_CASE: `breaker.failureThreshold` → RESILIENT_BREAKER_FAILURE_THRESHOLD. */
export function envNameOf(path: string[]): string {
  return `RESILIENT_${path.map(part => part.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()).join('_')}`
}

function valueAt(value: unknown, path: string[]): unknown {
  return path.reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), value)
}

/** Every leaf setting and every section of the schema, in schema order. Runs on whatever keys the schema has. */
export function listConfigFields(schema: AnySchema = configSchema as unknown as AnySchema): { fields: ConfigField[]; sections: ConfigSection[] } {
  const defaults = schema.parse({})
  const fields: ConfigField[] = []
  const sections: ConfigSection[] = []
  const walk = (node: AnySchema, path: string[], description: string) => {
    if (node._zod.def.type === 'object' && path.length > 0) sections.push({ key: path.join('.'), description })
    if (node._zod.def.type === 'object') {
      for (const [name, child] of Object.entries(node._zod.def.shape as Record<string, AnySchema>)) {
        const { inner, description: childDescription } = unwrap(child)
        walk(inner, [...path, name], childDescription)
      }
      return
    }
    const type = describeType(node)
    fields.push({ key: path.join('.'), path, ...type, description, defaultValue: valueAt(defaults, path),
      env: type.kind === 'map' || type.kind === 'other' ? undefined : envNameOf(path) })
  }
  walk(unwrap(schema).inner, [], '')
  return { fields, sections }
}

/** Turns a RESILIENT_* value into the type its field expects; zod reports anything that still does not fit. */
export function parseEnvValue(field: ConfigField, value: string): unknown {
  switch (field.kind) {
    case 'boolean':
      if (/^(1|true|yes|on)$/i.test(value)) return true
      if (/^(0|false|no|off)$/i.test(value)) return false
      return value
    case 'number':
    case 'integer':
      return value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value
    case 'string-list':
      return value.split(',').map(entry => entry.trim()).filter(Boolean)
    default:
      return value
  }
}
