import { findOptions, type OptionSpec } from '../argv/args.js'
import { findEnv } from '../npm-family.js'
import { readNpmrcFiles, type NpmrcRead } from '../config/npmrc.js'
import type { IndexChoice, ToolContext } from '../types.js'
import { hostAndPortOf } from '../../url.js'

/** Where an npm-family tool reads its default registry, as data: each adapter lists its own spellings. */
export interface RegistrySpellings {
  /** Options that set the registry, in every spelling the tool's parser accepts. */
  options: OptionSpec[]
  /** Environment variables (matched in any case, as npm and yarn 1 do). */
  env: string[]
  /** npmrc-style files, highest precedence first. */
  npmrc: string[]
  /** A tool-specific file read before the npmrc files (pnpm-workspace.yaml, bunfig.toml, .yarnrc). */
  ownFile?: () => { value: string; origin: string } | undefined
  /** The tool's default registry: a credential scoped to its host does not make it private (see below). */
  defaultIndex: string
}

// Option names that mention a registry and are understood: a scope's own registry (scoped packages keep it whatever
// --registry says, so a mirror never sees them), npm's lockfile switch and nerf-darted credentials
// (`--//host/:_authToken`). Any other unread spelling fails closed.
const UNDERSTOOD = /^(?:config\.)?(?:@[^:=]+:registry|replace-registry-host|\/\/.*)$/
// npm's nerf-darted credentials (`//host/path/:_authToken`) and the legacy unscoped ones, which go to whatever the
// registry is (npm config docs).
export const HOST_CREDENTIAL = /^\/\/([^/]+)(?:\/[^:]*)?:(?:_authToken|_auth|_password|username|certfile|keyfile|tokenHelper)$/
export const DEFAULT_CREDENTIAL = /^(?:_authToken|_auth|_password)$/

/** Every npm setting key given in argv (`--//host/:_authToken=`), npm_config_* variables and the npmrc files, with where. */
export function settingKeys(context: ToolContext, files: readonly NpmrcRead[]): [string, string][] {
  return [
    ...context.args.filter(arg => arg.startsWith('--//')).map(arg => [arg.slice(2).split('=')[0]!, 'the command line'] as [string, string]),
    ...Object.keys(context.env).filter(name => /^npm_config_/i.test(name)).map(name => [name.slice('npm_config_'.length), name] as [string, string]),
    ...files.flatMap(read => 'settings' in read ? [...read.settings.keys()].map(key => [key, read.file] as [string, string]) : []),
  ]
}

function unknownRegistryOption(args: readonly string[], specs: readonly OptionSpec[]): string | undefined {
  for (const arg of args) {
    if (arg === '--') break
    if (!arg.startsWith('-')) continue
    const name = arg.replace(/^-+/, '').split('=')[0]!
    if (!/registry/i.test(name) || UNDERSTOOD.test(name) || specs.some(spec => findOptions([arg, 'x'], spec).length)) continue
    return arg.split('=')[0]
  }
  return undefined
}

/**
 * Where a credential that makes `host` private is configured: a `//host/:_authToken` key in argv, env or an npmrc
 * file, or a legacy unscoped one (it would follow the install to a mirror). A token scoped to the public default
 * registry is left out: CI jobs hold one to publish, npm sends it to that host only, so a mirror never sees it, and
 * the public registry's names cannot be confused (private packages there are scoped to their owner).
 */
function credentialFor(host: string, keyed: [string, string][], publicHost: string | undefined): string | undefined {
  for (const [key, origin] of keyed) {
    const match = HOST_CREDENTIAL.exec(key)
    if (match ? match[1]!.toLowerCase() === host && host !== publicHost : DEFAULT_CREDENTIAL.test(key)) return `${key} in ${origin}`
  }
  return undefined
}

/** The registry an npm-family command uses, failing closed on what cannot be read, and private when credentials say so. */
export function findRegistryChoice(context: ToolContext, spellings: RegistrySpellings): IndexChoice | null {
  const unknown = unknownRegistryOption(context.args, spellings.options)
  if (unknown) return { url: '', origin: unknown, privateBecause: `resilient cannot tell which registry ${unknown} names` }
  const files = readNpmrcFiles(spellings.npmrc, context.env)
  const unreadable = files.find(read => 'unreadable' in read)
  if (unreadable) return { url: '', origin: unreadable.file, privateBecause: `${unreadable.file} could not be read (${(unreadable as { unreadable: string }).unreadable})` }
  const flag = spellings.options.flatMap(spec => findOptions(context.args, spec)).sort((a, b) => a.index - b.index).at(-1)
  const fromEnv = findEnv(context.env, spellings.env)
  const fromFiles = files.flatMap(read => 'settings' in read && read.settings.get('registry') ? [{ value: read.settings.get('registry')!, origin: read.file }] : [])[0]
  const own = flag?.value ? undefined : fromEnv ? undefined : spellings.ownFile?.()
  const choice: IndexChoice | null = flag?.value ? { url: flag.value, origin: context.args[flag.index]!.split('=')[0]! }
    : fromEnv ? { url: fromEnv.value, origin: fromEnv.name }
      : own ?? fromFiles ? { url: (own ?? fromFiles)!.value, origin: (own ?? fromFiles)!.origin } : null
  const url = choice?.url ?? spellings.defaultIndex
  const host = hostAndPortOf(url)
  const keyed = settingKeys(context, files)
  const credential = host && credentialFor(host, keyed, hostAndPortOf(spellings.defaultIndex))
  if (credential) return { url, origin: choice?.origin ?? credential, privateBecause: `you hold credentials for ${host} (${credential})` }
  return choice
}
