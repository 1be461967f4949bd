import { loadConfig, type LoadedConfig } from '../../config/load.js'
import type { Config } from '../../config/schema.js'
import { editUserConfig, type UserConfig } from '../../config/user-config.js'
import { UsageError } from '../../errors.js'
import { knownMirrors } from '../../config/effective-mirrors.js'
import { guessEcosystem, parseEcosystem } from './ecosystem-of.js'
import { ECOSYSTEMS, MIRRORS } from '../../mirrors/index.js'
import type { Ecosystem } from '../../mirrors/types.js'
import { hasCredentials, redact } from '../../redact.js'
import { configFlags, type RunFlags } from '../../run/flags.js'
import { isLoopback } from '../../url.js'

interface EditOptions { ecosystem?: string }
type Section = { mirrors?: string[]; custom?: Record<string, string> }

const isUrl = (entry: string) => /^https?:\/\//i.test(entry)
const say = (line: string) => process.stdout.write(`${redact(line)}\n`)

function checkUrl(url: string, config: Config): void {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new UsageError(`"${url}" is not a URL.`, 'Give the full index URL, e.g. https://pypi.example.org/simple.')
  }
  if (!/^https?:$/.test(parsed.protocol)) throw new UsageError(`${url}: only http and https mirrors are supported.`)
  if (parsed.protocol === 'http:' && !isLoopback(url) && !config.allowInsecure) {
    process.stderr.write(redact(`resilient: ${parsed.host} uses plain http: it is skipped unless "allowInsecure": true.\n`))
  }
}

/** The ecosystem meant: the --ecosystem option, else the only one that knows the name (or URL). */
function chooseEcosystem(entry: string, options: EditOptions, config: Config): Ecosystem {
  if (options.ecosystem) return parseEcosystem(options.ecosystem)
  if (isUrl(entry)) {
    const guessed = guessEcosystem(entry)
    if (guessed) return guessed
    throw new UsageError(`Cannot tell which ecosystem ${entry} serves.`, 'Say it: --ecosystem pypi (or npm, conda, crates, go).')
  }
  const candidates = ECOSYSTEMS.filter(ecosystem => knownMirrors(ecosystem, config).some(mirror => mirror.id === entry) || config[ecosystem]?.mirrors?.includes(entry))
  if (candidates.length === 1) return candidates[0]!
  if (candidates.length > 1) throw new UsageError(`"${entry}" is a mirror of ${candidates.join(', ')}.`, `Say which: --ecosystem ${candidates[0]}.`)
  throw new UsageError(`No mirror is named "${entry}".`, `See the names with \`resilient mirrors list\`, give a URL, or name your own: resilient mirrors add ${entry} <url>.`)
}

function section(config: UserConfig, ecosystem: Ecosystem): Section {
  return (config[ecosystem] ??= {}) as Section
}

/** The user's own list, starting from the catalog when there is none yet. */
function listOf(config: UserConfig, ecosystem: Ecosystem): string[] {
  return section(config, ecosystem).mirrors ?? MIRRORS[ecosystem].map(mirror => mirror.id)
}

/** A project config or RESILIENT_* variable that sets the list wins over the user config: say so. */
function noteOverrides(loaded: LoadedConfig, ecosystem: Ecosystem): void {
  const origin = loaded.origins[`${ecosystem}.mirrors`]
  if (origin && origin !== loaded.userConfigFile && origin !== 'default') {
    process.stderr.write(redact(`resilient: note: ${origin} also sets ${ecosystem}.mirrors and wins over the user config here (resilient config shows the effective list).\n`))
  }
}

async function load(globals: RunFlags) {
  return loadConfig({ cwd: process.cwd(), env: process.env, flags: configFlags(globals) })
}

/** `resilient mirrors use <name|url>`: puts it first in the user config's mirror list. */
export async function runMirrorsUse(entry: string, options: EditOptions, globals: RunFlags): Promise<number> {
  const loaded = await load(globals)
  const ecosystem = chooseEcosystem(entry, options, loaded.config)
  if (isUrl(entry)) checkUrl(entry, loaded.config)
  else if (!knownMirrors(ecosystem, loaded.config).some(mirror => mirror.id === entry)) {
    throw new UsageError(`${ecosystem} has no mirror named "${entry}".`, `Names: ${knownMirrors(ecosystem, loaded.config).map(mirror => mirror.id).join(', ')}; or add your own: resilient mirrors add ${entry} <url>.`)
  }
  const saved = await editUserConfig(loaded.userConfigFile, config => {
    section(config, ecosystem).mirrors = [entry, ...listOf(config, ecosystem).filter(item => item !== entry)]
  })
  say(`${ecosystem} mirrors, in the order tried: ${listOf(saved, ecosystem).join(', ')} (saved in ${loaded.userConfigFile})`)
  noteOverrides(loaded, ecosystem)
  return 0
}

/** `resilient mirrors add <name> <url>`: names your own mirror and appends it to the list. */
export async function runMirrorsAdd(name: string, url: string, options: EditOptions, globals: RunFlags): Promise<number> {
  if (!/^[a-z0-9][a-z0-9._-]{0,39}$/i.test(name)) throw new UsageError(`"${name}" cannot be a mirror name.`, 'Use letters, digits, dots, dashes and underscores, e.g. corp-proxy.')
  const loaded = await load(globals)
  checkUrl(url, loaded.config)
  const ecosystem = options.ecosystem ? parseEcosystem(options.ecosystem) : chooseEcosystem(url, options, loaded.config)
  if (MIRRORS[ecosystem].some(mirror => mirror.id === name)) throw new UsageError(`"${name}" is a built-in ${ecosystem} mirror.`, 'Pick another name for yours.')
  const saved = await editUserConfig(loaded.userConfigFile, config => {
    const list = listOf(config, ecosystem)
    section(config, ecosystem).custom = { ...section(config, ecosystem).custom, [name]: url }
    section(config, ecosystem).mirrors = list.includes(name) ? list : [...list, name]
  })
  say(`added ${ecosystem} mirror ${name} → ${url}; order tried: ${listOf(saved, ecosystem).join(', ')} (saved in ${loaded.userConfigFile})`)
  // Saved credentials sit at rest in that file (0600 in a 0700 directory): say so, and offer the better way.
  if (hasCredentials(url)) process.stderr.write(`${redact(`! ${name}'s URL holds a password or token, now saved in ${loaded.userConfigFile} (readable by you only). Prefer keeping it out of files: the tool's own credential store (a netrc, ~/.npmrc, a keyring) or a variable in your environment.`)}\n`)
  noteOverrides(loaded, ecosystem)
  return 0
}

/** `resilient mirrors remove <name>`: drops it from the user's list (and its name, if it was yours). */
export async function runMirrorsRemove(name: string, options: EditOptions, globals: RunFlags): Promise<number> {
  const loaded = await load(globals)
  const ecosystem = chooseEcosystem(name, options, loaded.config)
  const saved = await editUserConfig(loaded.userConfigFile, config => {
    const own = section(config, ecosystem)
    const list = listOf(config, ecosystem)
    if (!list.includes(name) && !(own.custom && name in own.custom)) {
      const where = loaded.origins[`${ecosystem}.mirrors`]
      throw new UsageError(`"${name}" is not in your ${ecosystem} mirrors (${loaded.userConfigFile}).`,
        where && where !== 'default' && where !== loaded.userConfigFile ? `The effective list comes from ${where}: edit it there.` : 'See the list with `resilient mirrors list`.')
    }
    if (own.custom) {
      delete own.custom[name]
      if (Object.keys(own.custom).length === 0) delete own.custom
    }
    own.mirrors = list.filter(item => item !== name)
  })
  say(`removed ${name} from the ${ecosystem} mirrors; order tried: ${listOf(saved, ecosystem).join(', ') || '(none)'} (saved in ${loaded.userConfigFile})`)
  noteOverrides(loaded, ecosystem)
  return 0
}
