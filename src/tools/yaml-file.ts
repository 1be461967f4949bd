import { readFileSync } from 'node:fs'
import { parseYaml as load } from './lazy-parsers.js'

/** A YAML config file as a plain object; undefined when missing or unreadable (the tool would complain itself). */
export function readYamlFile(path: string): Record<string, unknown> | undefined {
  try {
    const data = load(readFileSync(path, 'utf8'))
    return data && typeof data === 'object' && !Array.isArray(data) ? data as Record<string, unknown> : undefined
  } catch {
    return undefined
  }
}
