import { parseYaml as load } from './lazy-parsers.js'
import { readRegularFile } from './regular-file.js'

/** A YAML file as a plain object; undefined when missing, unreadable or not a regular file (the tool reads that one). */
export function readYamlFile(path: string): Record<string, unknown> | undefined {
  try {
    const text = readRegularFile(path)
    const data = text === undefined ? undefined : load(text)
    return data && typeof data === 'object' && !Array.isArray(data) ? data as Record<string, unknown> : undefined
  } catch {
    return undefined
  }
}
