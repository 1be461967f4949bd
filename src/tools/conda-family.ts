import { CONDA_UPSTREAM } from '../mirrors/conda.js'
import { MIRRORS } from '../mirrors/index.js'
import { hasCredentials } from '../redact.js'
import { findOptions } from './argv/args.js'
import { condaRcFiles, findChannelChoice, findPinnedSpecFile, type CondaFlavor } from './config/conda-channels.js'
import type { AdviceSpec } from './advice.js'
import type { CommandLine, ReadOnlyCommand, ReadOnlyForms, ToolAdapter, ToolContext } from './types.js'
import { readYamlFile } from './config/yaml-file.js'
import { versionAndHelp } from './argv/read-only.js'
import { networkVariables } from './config/environment.js'
import { withEnv } from './argv/command-line.js'
import { classifyArgs, findVerb, type VerbTable } from './argv/verbs.js'

/**
 * conda and the two mamba CLIs (conda base/context.py, micromamba common_options.cpp). conda and mamba 1 share conda's CLI and variables; micromamba and
 * mamba 2 share micromamba's (`--channel-alias` exists as a flag, variables are MAMBA_*).
 */
const VERBS = {
  network: new Set(['install', 'create', 'update', 'upgrade', 'remove', 'uninstall', 'search', 'repoquery', 'self-update',
    'env create', 'env update']),
  local: /^(-h|--help|-V|--version|--offline)$/,
  // General options that take a value and may stand before the subcommand (micromamba).
  syntax: { optionsWithValue: ['-r', '--root-prefix', '--rc-file', '--log-level'], groups: new Set(['env']) },
} satisfies VerbTable
const KNOB_KEYS = ['remote_connect_timeout_secs', 'remote_read_timeout_secs', 'remote_max_retries', 'remote_backoff_factor']

function verbOf(args: readonly string[]): string {
  return findVerb(args, VERBS.syntax) ?? ''
}

/**
 * The mirror's form of the default channels: conda mirrors serve `defaults` (repo.anaconda.com/pkgs/*) next to the
 * channel alias (`<base>/anaconda/cloud` and `<base>/anaconda/pkgs/main`, chsrc's Anaconda recipe).
 */
export function mirroredDefaults(alias: string): string[] {
  const base = /^(.*\/anaconda)\/cloud\/?$/.exec(alias)?.[1]
  return base ? [`${base}/pkgs/main`, `${base}/pkgs/r`] : []
}

/**
 * Channel alias bases a full channel URL may start with: the upstream and every catalog mirror (all lay channels out
 * as `<base>/<channel>`), over https and http. A URL on one of them can be pointed at another mirror.
 */
export const ALIAS_BASES = [CONDA_UPSTREAM, ...MIRRORS.conda.map(mirror => mirror.url)]
  .flatMap(url => [url, url.replace(/^https:/, 'http:')]).map(url => url.replace(/\/+$/, ''))

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** Channels named by a full URL do not follow the alias: point those on public hosts at the mirror too. */
export function redirectChannelUrls(command: CommandLine, alias: string): CommandLine {
  const target = alias.replace(/\/+$/, '')
  const pkgs = mirroredDefaults(alias)[0]?.replace(/\/main$/, '')
  const rules = ALIAS_BASES.filter(base => base !== target).map(base => [base, target])
  if (pkgs) rules.push(['https://repo.anaconda.com/pkgs', pkgs])
  // A channel with a token or userinfo is never pointed elsewhere: its credentials belong to its own host.
  const argv = command.argv.map(arg => hasCredentials(arg.replace(/^(-c|--channel=)/, '')) ? arg : rules.reduce((out, [from, to]) =>
    out.replace(new RegExp(`^(-c|--channel=)?${escapeRegExp(from!)}(?=/)`), (_, flag = '') => `${flag}${to}`), arg))
  return { ...command, argv }
}

export interface CondaFamilyOptions {
  name: string
  executables: RegExp
  /** AdapterData.shimNames: none for mamba 1, reached through `mamba`. */
  shimNames?: readonly string[]
  flavor: CondaFlavor
  /** Variables of the tool's own timeouts and retries. */
  knobs: { variables: string[] }
  applyIndex(command: CommandLine, url: string): CommandLine
  mirrorMechanism: string
  /** ToolAdapter.noRelay: what the tool records of the channel it downloads from. */
  noRelay: string
  verified: ToolAdapter['verified']
  forms: string
  readOnly?: ReadOnlyForms
}

/**
 * Read-only in conda's CLI and micromamba's alike (their --help), plus `extra`. `info` with a package name
 * searched the channels in old conda: only options may follow it.
 */
export function condaReadOnly(...extra: ReadOnlyCommand[]): ReadOnlyForms {
  return {
    leadingFlags: [],
    commands: [...versionAndHelp('--version', '--help', '-h'), { words: ['list'] }, { words: ['info'], deny: ['[!-]*'] },
      { words: ['env', 'list'] }, ...extra],
  }
}

/** conda's and libmamba's spellings differ in one word: the command. */
function condaAdvice(name: string, rc: string): AdviceSpec {
  return {
    moreTime: name === 'conda' ? 'conda config --set remote_read_timeout_secs 120' : `${name} <command> --retry-clean-cache (libmamba has no read timeout setting)`,
    mirror: `CONDA_CHANNEL_ALIAS=<mirror-url> ${name} <command>, or channel_alias in ${rc}`,
    caBundle: `ssl_verify: /path/ca.pem in ${rc}`,
    proxy: `proxy_servers in ${rc}`,
    noCache: `${name} clean --all, then run again`,
    cleanCache: `${name} clean --all`,
    lookUp: name === 'micromamba' ? 'micromamba search <name>' : `${name} search <name>`,
  }
}

export function condaFamilyAdapter(options: CondaFamilyOptions) {
  const { flavor } = options
  return {
    name: options.name,
    ecosystem: 'conda',
    offline: { args: ['--offline'], where: 'the conda package cache' },
    environment: networkVariables(options.name, 'CONDA_CHANNELS', 'CONDA_CHANNEL_ALIAS'),
    shimNames: options.shimNames,
    executables: options.executables,
    readOnly: options.readOnly,
    alternatives: [[options.name]],
    defaultIndex: CONDA_UPSTREAM,
    verbs: VERBS,
    classify: (args: string[]) => classifyArgs(args, VERBS),
    findUserIndex: (context: ToolContext) => findChannelChoice(context, flavor, verbOf(context.args)),
    noMirrorReason(context: ToolContext) {
      const pinned = findPinnedSpecFile(context, flavor)
      return pinned ? `${pinned} pins every package URL, which no channel setting redirects` : undefined
    },
    knobs: { env: options.knobs.variables, settings: KNOB_KEYS },
    configFiles: {
      // conda base/constants.py SEARCH_PATH; micromamba adds .mambarc, MAMBARC, --rc-file and --no-rc.
      names: ['.condarc, condarc, condarc.d/ (/etc/conda, the install root, ~/.config/conda, ~/.conda, the active environment)',
        '~/.condarc, CONDARC', ...flavor.mamba ? ['~/.mambarc, MAMBARC, --rc-file'] : []],
      find(keys: readonly string[], context: ToolContext) {
        for (const file of condaRcFiles(context, flavor)) {
          const key = keys.find(name => readYamlFile(file)?.[name] !== undefined)
          if (key) return `${file} ${key}`
        }
        return undefined
      },
    },
    applyIndex: options.applyIndex,
    advice: condaAdvice(options.name === 'mamba-classic' ? 'mamba' : options.name, options.flavor.mamba ? '~/.mambarc' : '~/.condarc'),
    verified: options.verified,
    forms: options.forms,
    mirrorMechanism: options.mirrorMechanism,
    noRelay: options.noRelay,
  } satisfies ToolAdapter
}

/** conda and mamba 1: the alias and default channels by variable (env beats every rc file for scalars). */
export function applyCondaIndex(command: CommandLine, url: string): CommandLine {
  const defaults = mirroredDefaults(url)
  const env: Record<string, string> = { CONDA_CHANNEL_ALIAS: url }
  if (defaults.length) env.CONDA_DEFAULT_CHANNELS = defaults.join(',')
  return withEnv(redirectChannelUrls(command, url), env)
}

/** micromamba and mamba 2: `--channel-alias` exists as a flag (mamba common_options.cpp); it wins over the rc files. */
export function applyMambaIndex(command: CommandLine, url: string): CommandLine {
  const redirected = redirectChannelUrls(command, url)
  const defaults = mirroredDefaults(url)
  // CLI11 refuses a repeated single-value option: replace the user's own (public) alias instead of adding one.
  const own = findOptions(redirected.argv, { long: ['--channel-alias'], takesValue: true })[0]
  const argv = [...redirected.argv]
  if (!own) argv.push('--channel-alias', url)
  else if (argv[own.index]!.includes('=')) argv[own.index] = `--channel-alias=${url}`
  else argv[own.index + 1] = url
  const withAlias = { ...redirected, argv }
  return defaults.length ? withEnv(withAlias, { MAMBA_DEFAULT_CHANNELS: defaults.join(',') }) : withAlias
}

/**
 * conda writes the channel it downloaded each package from into conda-meta/<package>.json: `channel` is
 * str(Channel), its base_url with the subdir, and `url` the package's URL (conda 26.7 models/records.py ChannelField,
 * models/channel.py Channel.base_url). A channel alias or a channel URL pointed at the relay would record the relay's
 * address there (and in `conda list --explicit`); conda has no mirror setting that fetches from one URL while
 * recording another.
 */
export const CONDA_NO_RELAY = 'conda records the URL of the channel it downloads from in conda-meta/<package>.json (channel, url): through the relay it would record the relay\'s address'

/**
 * libmamba (mamba 2, micromamba) records `channel` as the channel's platform URL and `url` from it
 * (core/transaction.cpp); for a mirrored channel that URL is its first mirror's (specs/channel.cpp Channel::url), so
 * `mirrored_channels` (MAMBA_MIRRORED_CHANNELS) and `--channel-alias` would both record the relay's address.
 */
export const MAMBA_NO_RELAY = 'libmamba records the URL of the channel it downloads from in conda-meta/<package>.json (channel, url), a mirrored channel\'s first mirror included: through the relay it would record the relay\'s address'

export const CONDA_KNOBS = {
  variables: ['CONDA_REMOTE_CONNECT_TIMEOUT_SECS', 'CONDA_REMOTE_READ_TIMEOUT_SECS', 'CONDA_REMOTE_MAX_RETRIES', 'CONDA_REMOTE_BACKOFF_FACTOR'],
  // Defaults 9.15 s connect, 60 s read, 3 retries (conda base/context.py): 4 minutes per request to a black hole.
}

export const MAMBA_KNOBS = {
  variables: ['MAMBA_REMOTE_CONNECT_TIMEOUT_SECS', 'MAMBA_REMOTE_MAX_RETRIES', 'MAMBA_REMOTE_BACKOFF_FACTOR'],
  // Defaults 10 s connect, 3 retries (libmamba context.hpp); libmamba has no read timeout.
}

