import { existsSync, readFileSync } from 'node:fs'
import { ConfigError } from '../errors.js'

/** Where a JSON text stops being JSON, as a person looks for it: `{ line: 3, column: 14, what: 'comma expected' }`. */
export async function locateJsonError(text: string): Promise<{ line: number; column: number; what: string } | undefined> {
  const { parse, printParseErrorCode } = await import('jsonc-parser')
  const errors: import('jsonc-parser').ParseError[] = []
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: true })
  const first = errors[0]
  if (!first) return undefined
  const before = text.slice(0, first.offset).split('\n')
  return { line: before.length, column: before.at(-1)!.length + 1, what: printParseErrorCode(first.error).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase() }
}

/** JSON.parse, with the file, line and column of the first error in the message (`file:3:14: not valid JSON (...)`). */
export async function parseConfigJson(text: string, file: string): Promise<unknown> {
  try {
    return text.trim() === '' ? {} : JSON.parse(text)
  } catch (error) {
    const where = await locateJsonError(text)
    throw new ConfigError(where ? `${file}:${where.line}:${where.column}: not valid JSON (line ${where.line}, column ${where.column}: ${where.what}).`
      : `${file}: not valid JSON (${(error as Error).message}).`)
  }
}

/** The settings of a JSON config file resilient keeps (the user config), or undefined when there is none. */
export async function readJsonSettings(file: string): Promise<Record<string, unknown> | undefined> {
  if (!existsSync(file)) return undefined
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new ConfigError(`${file} could not be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`)
  }
  const parsed = await parseConfigJson(text, file)
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ConfigError(`${file}: expected an object of settings.`)
  return parsed as Record<string, unknown>
}
