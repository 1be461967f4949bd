import { dirname, join, resolve } from 'node:path'
import { stringifyToml as stringify } from './lazy-parsers.js'
import { findOptions } from '../argv/args.js'
import type { ChannelCandidate } from './conda-channels.js'
import { ALIAS_BASES, mirroredDefaults } from '../conda-family.js'
import { envFlag, nearestFile, readTomlFile, valueAt } from './project-files.js'

/**
 * pixi's configuration (pixi_config lib.rs): global layers merged in order, later winning
 * (/etc/pixi, $XDG_CONFIG_HOME/pixi, $PIXI_HOME), unless `--config-file`/PIXI_CONFIG_FILE names the only one or
 * `--no-config`/PIXI_NO_CONFIG skips them; then `<workspace>/.pixi/config.toml` on top. Mirrors are a `[mirrors]`
 * table of URL prefix → mirror URLs, the longest prefix winning.
 */
type Table = Record<string, unknown>

export const CONFIG_FILE = { long: ['--config-file'], takesValue: true }
export const NO_CONFIG = { long: ['--no-config'], takesValue: false }

function isTable(value: unknown): value is Table {
  return Boolean(value) && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date)
}

/** Tables merge key by key (pixi extends `mirrors` the same way); other values are replaced. */
export function mergeTables(base: Table, over: Table): Table {
  const merged: Table = { ...base }
  for (const [key, value] of Object.entries(over)) merged[key] = isTable(value) && isTable(merged[key]) ? mergeTables(merged[key] as Table, value) : value
  return merged
}

export function globalConfigFiles(env: NodeJS.ProcessEnv, home: string): string[] {
  const xdg = env.XDG_CONFIG_HOME || join(home, '.config')
  return ['/etc/pixi/config.toml', join(xdg, 'pixi', 'config.toml'), join(env.PIXI_HOME || join(home, '.pixi'), 'config.toml')]
}

/** The global layer pixi would load for these arguments: what the temporary config must carry over. */
export function readGlobalConfig(args: readonly string[], env: NodeJS.ProcessEnv, home: string, cwd: string): Table {
  if (findOptions(args, NO_CONFIG).length || (envFlag(env, 'PIXI_NO_CONFIG') && !env.PIXI_CONFIG_FILE)) return {}
  const explicit = findOptions(args, CONFIG_FILE).at(-1)?.value ?? env.PIXI_CONFIG_FILE
  const files = explicit ? [resolve(cwd, explicit)] : globalConfigFiles(env, home)
  return files.reduce<Table>((merged, file) => mergeTables(merged, readTomlFile(file) ?? {}), {})
}

const withSlash = (url: string) => url.endsWith('/') ? url : `${url}/`

/**
 * The user's global config plus mirrors sending conda.anaconda.org and the catalog mirrors a manifest may name by URL
 * (and repo.anaconda.com, when the mirror serves it) to `alias`. Prefixes end in `/` so pixi versions that join
 * without adding one keep the channel path.
 */
export function mirrorConfigText(user: Table, alias: string): string {
  const mirrors: Table = { ...(isTable(user.mirrors) ? user.mirrors : {}) }
  const target = withSlash(alias)
  const pkgs = mirroredDefaults(alias)[0]?.replace(/\/main$/, '')
  const redirects: [string, string][] = ALIAS_BASES.map(base => [withSlash(base), target])
  if (pkgs) redirects.push(['https://repo.anaconda.com/pkgs/', withSlash(pkgs)])
  for (const [from, to] of redirects) {
    delete mirrors[from.replace(/\/$/, '')]
    if (from !== to) mirrors[from] = [to]
    else delete mirrors[from]
  }
  // Token channels (`/t/<token>/`) map to themselves: the longest prefix wins, so they never reach the mirror.
  for (const [from] of redirects) if (from.startsWith('https://conda.anaconda.org/') || from.startsWith('http://conda.anaconda.org/')) mirrors[`${from}t/`] = [`${from}t/`]
  return `# Written by resilient for one attempt, removed after it: your pixi config plus a mirror.\n${stringify({ ...user, mirrors })}\n`
}

const MANIFEST_PATH = { long: ['--manifest-path'], short: ['-m'], takesValue: true }

/** The workspace manifest: `--manifest-path` (a file or folder), else pixi.toml or a pyproject.toml with [tool.pixi] above cwd. */
export function findManifest(args: readonly string[], cwd: string): string | undefined {
  const given = findOptions(args, MANIFEST_PATH).at(-1)?.value
  const start = given ? resolve(cwd, given) : cwd
  if (given && /\.toml$/.test(given)) return start
  return nearestFile(start, ['pixi.toml', 'pyproject.toml'], path => path.endsWith('pixi.toml') || valueAt(readTomlFile(path), 'tool', 'pixi') !== undefined)
}

function channelsOf(value: unknown): string[] {
  if (!Array.isArray(value)) return []
  return value.map(entry => typeof entry === 'string' ? entry : valueAt(entry, 'channel')).filter((entry): entry is string => typeof entry === 'string')
}

/** Channels of the workspace and its features, and mirrors of the user's and the workspace's config. */
export function pixiChannelCandidates(args: readonly string[], env: NodeJS.ProcessEnv, home: string, cwd: string): ChannelCandidate[] {
  const found: ChannelCandidate[] = []
  const manifest = findManifest(args, cwd)
  if (manifest) {
    const data = readTomlFile(manifest) ?? {}
    const root = manifest.endsWith('pyproject.toml') ? valueAt(data, 'tool', 'pixi') : data
    const features = valueAt(root, 'feature')
    const tables = [valueAt(root, 'workspace'), valueAt(root, 'project'), ...(isTable(features) ? Object.values(features) : [])]
    for (const table of tables) found.push(...channelsOf(valueAt(table, 'channels')).map(url => ({ url, origin: `${manifest} channels` })))
  }
  const local = manifest ? join(dirname(manifest), '.pixi', 'config.toml') : undefined
  const configs = [...(local ? [[local, readTomlFile(local) ?? {}] as const] : []), ['your pixi config', readGlobalConfig(args, env, home, cwd)] as const]
  for (const [origin, config] of configs) {
    const mirrors = valueAt(config, 'mirrors')
    if (isTable(mirrors)) for (const urls of Object.values(mirrors)) found.push(...channelsOf(urls).map(url => ({ url, origin: `${origin} [mirrors]` })))
    found.push(...channelsOf(valueAt(config, 'default-channels')).map(url => ({ url, origin: `${origin} default-channels` })))
  }
  return found
}
