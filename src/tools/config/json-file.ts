import { readRegularFile } from './regular-file.js'

/** A JSON file's object (a package.json); undefined when missing, unreadable, not a regular file or not an object. */
export function readJsonFile(path: string): Record<string, unknown> | undefined {
  try {
    const text = readRegularFile(path)
    const data = text === undefined ? undefined : JSON.parse(text) as unknown
    return data && typeof data === 'object' && !Array.isArray(data) ? data as Record<string, unknown> : undefined
  } catch {
    return undefined
  }
}
