import { ConfigError } from '../errors.js'
import { configSchema, type Config } from './schema.js'

export interface LoadedConfig {
  config: Config
  /** Files that contributed, in precedence order (lowest first). */
  files: string[]
  /** Where each top-level key came from: `default`, a file path, `RESILIENT_MAX_ATTEMPTS`, `--max-attempts`. */
  origins: Record<string, string>
}

export interface LoadOptions {
  cwd: string
  env: NodeJS.ProcessEnv
  /** Values from CLI flags; they win over everything. */
  flags?: Partial<Config>
}

const ENV_KEYS: Record<string, { key: keyof Config; parse: (value: string) => unknown }> = {
  RESILIENT_MAX_ATTEMPTS: { key: 'maxAttempts', parse: Number },
  RESILIENT_MAX_TOTAL_SECONDS: { key: 'maxTotalSeconds', parse: Number },
  RESILIENT_MAX_WAIT_SECONDS: { key: 'maxWaitSeconds', parse: Number },
  RESILIENT_FAST_DETECT: { key: 'fastDetect', parse: parseBoolean },
  RESILIENT_MIRRORS: { key: 'mirrors', parse: parseBoolean },
  RESILIENT_ALLOW_INSECURE: { key: 'allowInsecure', parse: parseBoolean },
}

function parseBoolean(value: string): boolean | string {
  if (/^(1|true|yes|on)$/i.test(value)) return true
  if (/^(0|false|no|off)$/i.test(value)) return false
  return value
}

/** Precedence, lowest first: defaults < project config (cosmiconfig `mirror`) < RESILIENT_* env < CLI flags. */
export async function loadConfig({ cwd, env, flags = {} }: LoadOptions): Promise<LoadedConfig> {
  const { cosmiconfig } = await import('cosmiconfig')
  const origins: Record<string, string> = {}
  const files: string[] = []
  let merged: Record<string, unknown> = {}
  let found
  try {
    found = await cosmiconfig('mirror').search(cwd)
  } catch (error) {
    throw new ConfigError(`The config file could not be read: ${(error as Error).message.split('\n')[0]}`)
  }
  if (found && !found.isEmpty) {
    if (typeof found.config !== 'object' || found.config === null || Array.isArray(found.config)) {
      throw new ConfigError(`${found.filepath}: expected an object of settings, got ${Array.isArray(found.config) ? 'an array' : typeof found.config}.`)
    }
    validate(found.config, found.filepath)
    merged = { ...found.config }
    files.push(found.filepath)
    for (const key of Object.keys(found.config)) origins[key] = found.filepath
  }
  for (const [name, { key, parse }] of Object.entries(ENV_KEYS)) {
    if (env[name] === undefined || env[name] === '') continue
    merged[key] = parse(env[name]!)
    validate({ [key]: merged[key] }, name)
    origins[key] = name
  }
  for (const [key, value] of Object.entries(flags)) {
    if (value === undefined) continue
    merged[key] = value
    origins[key] = `--${key.replace(/[A-Z]/g, c => `-${c.toLowerCase()}`)}`
  }
  const config = validate(merged, files.at(-1) ?? 'the configuration')
  for (const key of Object.keys(config)) origins[key] ??= 'default'
  return { config, files, origins }
}

function validate(value: unknown, where: string): Config {
  const result = configSchema.safeParse(value)
  if (result.success) return result.data
  const issue = result.error.issues[0]!
  const path = issue.path.join('.') || '(top level)'
  const detail = issue.code === 'unrecognized_keys'
    ? `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map(k => `"${k}"`).join(', ')}`
    : issue.message
  throw new ConfigError(`${where}: invalid value for "${path}": ${detail}.`,
    'See .mirrorrc.example or docs/config.md for every key and its type.')
}
