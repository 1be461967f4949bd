import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { parseToml as parse } from './lazy-parsers.js'

/** A TOML file as a plain object; undefined when missing or unreadable (the tool itself would complain). */
export function readTomlFile(path: string): Record<string, unknown> | undefined {
  try {
    return parse(readFileSync(path, 'utf8')) as Record<string, unknown>
  } catch {
    return undefined
  }
}

/** The value at `keys` inside nested tables (`tableAt(data, 'tool', 'uv')`), or undefined. */
export function valueAt(data: unknown, ...keys: string[]): unknown {
  let value = data
  for (const key of keys) {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined
    value = (value as Record<string, unknown>)[key]
  }
  return value
}

/** An array of tables (`[[tool.uv.index]]`) as plain objects; anything else is an empty list. */
export function tablesAt(data: unknown, ...keys: string[]): Record<string, unknown>[] {
  const value = valueAt(data, ...keys)
  return Array.isArray(value) ? value.filter((item): item is Record<string, unknown> => Boolean(item) && typeof item === 'object') : []
}

export function stringAt(data: unknown, ...keys: string[]): string | undefined {
  const value = valueAt(data, ...keys)
  return typeof value === 'string' && value !== '' ? value : undefined
}

/**
 * The nearest directory, from `start` up to the root, holding one of `names` that `accept` takes (a pyproject.toml
 * counts only with a `[tool.<name>]` table). Returns the file's path.
 */
export function nearestFile(start: string, names: readonly string[], accept: (path: string) => boolean = () => true): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    for (const name of names) {
      const path = join(dir, name)
      if (existsSync(path) && accept(path)) return path
    }
    if (dirname(dir) === dir) return undefined
  }
}

/** A boolean environment variable as the Rust and Python tools read it: set and not 0/false/no/off. */
export function envFlag(env: NodeJS.ProcessEnv, name: string): boolean {
  const value = env[name]
  return value !== undefined && value !== '' && !/^(0|false|no|off)$/i.test(value)
}
