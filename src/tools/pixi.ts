import { execFile } from 'node:child_process'
import { homedir } from 'node:os'
import { promisify } from 'node:util'
import { CONDA_UPSTREAM } from '../mirrors/conda.js'
import { findOptions } from './argv/args.js'
import { channelOption, pickChannelChoice } from './config/conda-channels.js'
import { pixiChannelCandidates } from './config/pixi-config.js'
import { applyPixiIndex, type PixiSetup } from './source/pixi-mirror.js'
import { pixiRelay } from './relay/pixi-relay.js'
import { UV_KNOB_DATA } from './source/python-index.js'
import type { ReadOnlyForms, ScratchDir, ToolAdapter } from './types.js'
import { named, versionAndHelp } from './argv/read-only.js'
import { classifyArgs, findVerb, type VerbTable } from './argv/verbs.js'

export type { PixiSetup } from './source/pixi-mirror.js'

// pixi_cli lib.rs (aliases). `run`, `shell`, `list` and `tree` may install first, but they run
// the user's tasks: they run once; `pixi install` first makes them local.
const GLOBAL_NETWORK = ['install', 'i', 'add', 'a', 'sync', 's', 'update', 'upgrade', 'upgrade-all']
const VERBS = {
  network: new Set(['add', 'a', 'install', 'i', 'remove', 'rm', 'update', 'upgrade', 'lock', 'reinstall', 'search', 'build',
    'exec', 'x', ...['global', 'g'].flatMap(group => GLOBAL_NETWORK.map(verb => `${group} ${verb}`))]),
  publish: new Set(['upload', 'publish', 'auth']),
  local: /^(-h|--help|-V|--version|--offline)$/,
  syntax: { optionsWithValue: ['--manifest-path', '-m', '--workspace', '-w', '--color'], groups: new Set(['global', 'g']) },
} satisfies VerbTable
/** `--config-file` (and PIXI_CONFIG_FILE) arrived in pixi 0.70.0 (prefix-dev/pixi#6222). */
const CONFIG_FILE_SINCE = [0, 70]
// Read-only (pixi's docs/reference/cli): `list` and `tree` may install first, so only these.
const READ_ONLY = {
  leadingFlags: [],
  commands: [...versionAndHelp('--version', '-V', '--help', '-h'), ...named(['info']),
    ...['config', 'task', 'global'].flatMap(group => named(['list'], { under: [group] }))],
} satisfies ReadOnlyForms

function verbOf(args: readonly string[]): { verb: string; global: boolean } {
  const [first = '', second] = (findVerb(args, VERBS.syntax) ?? '').split(' ')
  return VERBS.syntax.groups.has(first) ? { verb: second ?? '', global: true } : { verb: first, global: false }
}

function olderThan(version: [number, number] | undefined, [major, minor]: number[]): boolean {
  return Boolean(version && (version[0] < major! || (version[0] === major && version[1] < minor!)))
}

/** Why this invocation cannot be given a config file for one run (a mirror's, the relay's), if it cannot. */
function configFileReason(args: readonly string[], setup: PixiSetup | undefined): string | undefined {
  const { verb, global } = verbOf(args)
  if (global || verb === 'exec' || verb === 'x') return `pixi ${global ? 'global' : 'exec'} reads mirrors only from its global config files (it has no --config-file), which resilient does not edit`
  if (olderThan(setup?.version, CONFIG_FILE_SINCE)) return `pixi ${setup!.version!.join('.')} reads mirrors only from its global config files; pixi 0.70+ takes a --config-file for one run`
  return undefined
}

/** The adapter bound to the user's setup; without one, the mirror config carries no user config. */
export function pixiWith(setup?: PixiSetup) {
  return {
    name: 'pixi',
    ecosystem: 'conda',
    offline: { args: ['--offline'], where: "pixi's package cache" },
    shimNames: ['pixi'],
    executables: /^pixi(\.exe)?$/,
    readOnly: READ_ONLY,
    alternatives: [['pixi']],
    defaultIndex: CONDA_UPSTREAM,
    verbs: VERBS,
    classify: args => classifyArgs(args, VERBS),
    findUserIndex({ args, env, home, cwd }) {
      const fromArgs = findOptions(args, channelOption({ argparse: false, mamba: false })).map(option => ({ url: option.value ?? '', origin: option.name }))
      return pickChannelChoice([...fromArgs, ...pixiChannelCandidates(args, env, home, cwd)])
    },
    noMirrorReason: ({ args }) => configFileReason(args, setup),
    // The relay is pointed at the same way as a mirror: a [mirrors] entry in a config file for the attempt.
    relay: pixiRelay(setup, args => configFileReason(args, setup)),
    // Only the PyPI side of pixi (uv inside it) has knobs; its conda client retries 3 times with a fixed timeout.
    knobs: UV_KNOB_DATA,
    applyIndex: (command, url) => applyPixiIndex(command, url, setup),
    advice: {
      mirror: '[mirrors] in ~/.pixi/config.toml (pixi config edit)',
      caBundle: 'pixi <command> --tls-root-certs system (the system store, where a corporate CA is installed)',
      proxy: '[proxy-config] in ~/.pixi/config.toml',
      noCache: 'pixi clean cache, then run again',
      cleanCache: 'pixi clean cache',
    },
    verified: 'replay',
    forms: '`pixi add\\|install\\|update\\|lock ...`, `pixi global install`, `pixi init` (run once)',
    mirrorMechanism: 'a temporary config file (your pixi config plus `[mirrors]` for conda.anaconda.org) given as `PIXI_CONFIG_FILE`, or in place of your `--config-file`; removed after the attempt; none for `pixi global`/`exec` or pixi < 0.70 (said so)',
  } satisfies ToolAdapter
}

async function readVersion(executable: string, env: NodeJS.ProcessEnv): Promise<[number, number] | undefined> {
  const output = await promisify(execFile)(executable, ['--version'], { env, timeout: 10_000 }).then(result => result.stdout, () => '')
  const match = /(\d+)\.(\d+)\.\d+/.exec(output)
  return match ? [Number(match[1]), Number(match[2])] : undefined
}

export const pixi = {
  // Unbound: run-tool always binds the user's setup with resolveVariant before any attempt or dry run.
  ...pixiWith(),
  async resolveVariant(executable: string, env: NodeJS.ProcessEnv, scratch?: ScratchDir): Promise<ToolAdapter> {
    const version = await readVersion(executable, env)
    return scratch ? pixiWith({ env, home: env.HOME || homedir(), scratch, version }) : pixiWith()
  },
} satisfies ToolAdapter
