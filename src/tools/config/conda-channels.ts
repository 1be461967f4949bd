import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { MIRRORS } from '../../mirrors/index.js'
import { hasCredentials, urlWithoutSecrets } from '../../redact.js'
import { findOptions, type OptionSpec } from '../argv/args.js'
import type { IndexChoice, ToolContext } from '../types.js'
import { readYamlFile } from './yaml-file.js'
import { isUnderIndex } from '../../url.js'

/**
 * Where a conda-family user chose channels (conda cli/helpers.py and base/context.py, micromamba common_options.cpp): `-c` in any accepted spelling,
 * `channel::package` specs, environment files, CONDA_/MAMBA_ variables and every rc file conda or mamba reads.
 * A channel given by name resolves through the channel alias, so only URLs and paths are choices of an index.
 */
export interface CondaFlavor {
  /** conda and mamba 1 parse with argparse (`--chan` is `--channel`); micromamba and mamba 2 with CLI11 (exact names). */
  argparse: boolean
  /** micromamba and mamba 2 also read .mambarc files, MAMBARC, `--rc-file` and `--channel-alias`. */
  mamba: boolean
}

export interface ChannelCandidate { url: string; origin: string }

// The public Anaconda hosts: the upstream a mirror stands in for. Everything else named by URL is someone's choice.
const PUBLIC = /^https?:\/\/(conda\.anaconda\.org|repo\.anaconda\.com|repo\.continuum\.io|anaconda\.org)(\/|$)/i
const LOCAL = /^(file:|\/|\.{1,2}[\\/]|~|[a-z]:[\\/])/i

// argparse and CLI11 read a short cluster as flags then one valued option (`-yc URL`): conda's valued letters.
const VALUE_LETTERS = 'cnpfm'
export const channelOption = (flavor: CondaFlavor): OptionSpec => ({ long: ['--channel'], short: ['-c'], takesValue: true, minPrefix: flavor.argparse ? 5 : undefined, clusterValueLetters: VALUE_LETTERS })
export const fileOption = (flavor: CondaFlavor): OptionSpec => ({ long: ['--file'], short: ['-f'], takesValue: true, minPrefix: flavor.argparse ? 4 : undefined })
const OVERRIDE = (flavor: CondaFlavor): OptionSpec => ({ long: ['--override-channels'], takesValue: false, minPrefix: flavor.argparse ? 5 : undefined })

function listOf(value: unknown): string[] {
  if (typeof value === 'string') return value.split(',').map(item => item.trim()).filter(Boolean)
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []
}

function mapValues(value: unknown): string[] {
  return value && typeof value === 'object' && !Array.isArray(value) ? Object.values(value).flatMap(listOf) : []
}

function rcFilesIn(dir: string, names: readonly string[]): string[] {
  const files = names.map(name => join(dir, name))
  const dotD = join(dir, 'condarc.d')
  if (existsSync(dotD)) files.push(...readdirSync(dotD).filter(name => /\.ya?ml$/.test(name)).sort().map(name => join(dotD, name)))
  return files
}

/** rc files in conda's search order (conda base/constants.py SEARCH_PATH), mamba's additions included. */
export function condaRcFiles({ env, home, cwd, args, executable }: ToolContext, flavor: CondaFlavor): string[] {
  if (flavor.mamba) {
    if (args.includes('--no-rc')) return []
    const explicit = findOptions(args, { long: ['--rc-file'], takesValue: true }).map(option => resolve(cwd, option.value ?? ''))
    if (explicit.length) return explicit
  }
  const names = flavor.mamba ? ['.condarc', 'condarc', '.mambarc'] : ['.condarc', 'condarc']
  const root = env.CONDA_ROOT ?? (env.CONDA_EXE ? dirname(dirname(env.CONDA_EXE)) : executable ? dirname(dirname(executable)) : undefined)
  const xdg = env.XDG_CONFIG_HOME || join(home, '.config')
  const dirs = ['/etc/conda', '/var/lib/conda', root, flavor.mamba ? env.MAMBA_ROOT_PREFIX : undefined, join(xdg, 'conda'),
    flavor.mamba ? join(xdg, 'mamba') : undefined, join(home, '.conda'), env.CONDA_PREFIX].filter((dir): dir is string => Boolean(dir))
  const files = [...dirs.flatMap(dir => rcFilesIn(dir, names)), join(home, '.condarc')]
  if (flavor.mamba) files.push(join(home, '.mambarc'))
  for (const variable of flavor.mamba ? ['CONDARC', 'MAMBARC'] : ['CONDARC']) if (env[variable]) files.push(env[variable]!)
  return [...new Set(files)].filter(file => existsSync(file))
}

/** Channels of an environment file (`conda env create -f environment.yml`). */
function environmentFileChannels(path: string): string[] {
  return listOf(readYamlFile(path)?.channels)
}

function environmentFiles(context: ToolContext, flavor: CondaFlavor, verb: string): string[] {
  const given = findOptions(context.args, fileOption(flavor)).map(option => resolve(context.cwd, option.value ?? ''))
  const yaml = given.filter(path => /\.ya?ml$/i.test(path))
  // `conda env create|update` read environment.yml from the current folder when no file is named.
  if (!given.length && verb.startsWith('env ')) yaml.push(resolve(context.cwd, 'environment.yml'))
  return yaml.filter(path => existsSync(path))
}

function candidates(context: ToolContext, flavor: CondaFlavor, verb: string): ChannelCandidate[] {
  const { args, env } = context
  const found: ChannelCandidate[] = []
  const add = (values: string[], origin: string) => found.push(...values.map(url => ({ url, origin })))
  for (const option of findOptions(args, channelOption(flavor))) add([option.value ?? ''], option.name)
  add(args.filter(arg => !arg.startsWith('-') && arg.includes('::')).map(spec => spec.split('::')[0]!), 'channel::package')
  if (flavor.mamba) for (const option of findOptions(args, { long: ['--channel-alias'], takesValue: true })) add([option.value ?? ''], option.name)
  for (const file of environmentFiles(context, flavor, verb)) add(environmentFileChannels(file), `${file} channels`)
  const aliasVariable = flavor.mamba ? 'MAMBA_CHANNEL_ALIAS' : 'CONDA_CHANNEL_ALIAS'
  const defaultsVariable = flavor.mamba ? 'MAMBA_DEFAULT_CHANNELS' : 'CONDA_DEFAULT_CHANNELS'
  for (const variable of ['CONDA_CHANNELS', aliasVariable, defaultsVariable]) add(listOf(env[variable]), variable)
  const override = findOptions(args, OVERRIDE(flavor)).length > 0
  for (const file of condaRcFiles(context, flavor)) {
    const rc = readYamlFile(file) ?? {}
    if (!override) add(listOf(rc.channels), `${file} channels`)
    add(listOf(rc.channel_alias), `${file} channel_alias`)
    add(listOf(rc.default_channels), `${file} default_channels`)
    for (const key of ['custom_channels', 'custom_multichannels', 'mirrored_channels']) add(mapValues(rc[key]), `${file} ${key}`)
  }
  return found
}

/**
 * The user's channel choice that matters for safety: any local or private channel first (it must never be
 * replaced), else a public mirror the user already uses, else null (conda.anaconda.org by name).
 */
export function pickChannelChoice(found: readonly ChannelCandidate[]): IndexChoice | null {
  // A token channel (`https://conda.anaconda.org/t/<token>/chan`) or one with userinfo is private even on a public
  // host: a mirror has no such channel, and the token must reach no other host.
  const withToken = found.find(candidate => hasCredentials(candidate.url))
  if (withToken) return { url: withToken.url, origin: withToken.origin, privateBecause: `the channel ${urlWithoutSecrets(withToken.url)} (${withToken.origin}) carries credentials` }
  const all = found.filter(candidate => (/:\/\//.test(candidate.url) || LOCAL.test(candidate.url)) && !PUBLIC.test(candidate.url))
  // A channel under a catalog mirror's alias is that mirror; under another path of its host, someone's own.
  const knownAlias = (url: string) => MIRRORS.conda.find(mirror => isUnderIndex(url, mirror.url))?.url
  const chosen = all.find(candidate => !knownAlias(candidate.url)) ?? all[0]
  return chosen ? { url: knownAlias(chosen.url) ?? chosen.url, origin: chosen.origin } : null
}

export function findChannelChoice(context: ToolContext, flavor: CondaFlavor, verb: string): IndexChoice | null {
  return pickChannelChoice(candidates(context, flavor, verb))
}

/** An explicit spec (`@EXPLICIT`) or conda-lock file pins package URLs: no channel setting redirects them. */
export function findPinnedSpecFile(context: ToolContext, flavor: CondaFlavor): string | undefined {
  for (const option of findOptions(context.args, fileOption(flavor))) {
    const path = resolve(context.cwd, option.value ?? '')
    try {
      const text = readFileSync(path, 'utf8')
      if (/^@EXPLICIT\s*$/m.test(text) || (/conda-lock/i.test(path) && /^\s+url: https?:/m.test(text))) return path
    } catch {
      continue
    }
  }
  return undefined
}
