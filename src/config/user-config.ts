import { readFile } from 'node:fs/promises'
import { ConfigError } from '../errors.js'
import { withFileLock, writeFileAtomically } from '../files/locked-file.js'
import { validate } from './load.js'

export type UserConfig = Record<string, unknown>

async function readJson(file: string): Promise<UserConfig> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {}
    throw new ConfigError(`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`)
  }
  try {
    const value: unknown = text.trim() === '' ? {} : JSON.parse(text)
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as UserConfig
  } catch (error) {
    throw new ConfigError(`${file}: not valid JSON (${(error as Error).message}); it was left as it is.`)
  }
  throw new ConfigError(`${file}: expected an object of settings; it was left as it is.`)
}

/**
 * Edits the user config in place: read, change, validate, write atomically, all under its lock, so that two
 * `resilient mirrors add` at once both land. Keys the edit does not touch are kept as they are.
 */
export async function editUserConfig(file: string, edit: (config: UserConfig) => void): Promise<UserConfig> {
  return withFileLock(file, async () => {
    const config = await readJson(file)
    edit(config)
    validate(config, file)
    await writeFileAtomically(file, `${JSON.stringify(config, null, 2)}\n`)
    return config
  })
}
