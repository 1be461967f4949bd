import { basename } from 'node:path'
import { findOptions, type FoundOption, type OptionSpec } from './args.js'

/**
 * uv's command line (clap, uv-cli lib.rs): `--flag value`, `--flag=value`, `-fVALUE`, `-f=VALUE`; no prefix
 * abbreviations. Options taking a value, so that their values are not taken for the subcommand or the program that
 * `uv run`/`uvx` start. Global options may stand before or after the subcommand.
 */
const VALUE_LONG = new Set([
  '--cache-dir', '--config-file', '--directory', '--project', '--color', '--python-preference', '--python-fetch',
  '--allow-insecure-host', '--trusted-host', '--preview-features', '--python', '--index', '--default-index', '--index-url',
  '--extra-index-url', '--find-links', '--index-strategy', '--keyring-provider', '--resolution', '--prerelease',
  '--exclude-newer', '--exclude-newer-package', '--link-mode', '--refresh-package', '--reinstall-package',
  '--upgrade-package', '--upgrade-group', '--no-binary-package', '--no-build-package', '--no-build-isolation-package',
  '--config-setting', '--config-settings-package', '--fork-strategy', '--python-platform', '--python-version', '--with',
  '--with-editable', '--with-requirements', '--from', '--extra', '--group', '--no-group', '--only-group', '--package',
  '--env-file', '--requirements', '--requirement', '--constraints', '--constraint', '--overrides', '--override',
  '--build-constraints', '--build-constraint', '--editable', '--output-file', '--target', '--prefix', '--optional',
  '--bounds', '--tag', '--branch', '--rev', '--marker', '--torch-backend', '--no-extra', '--no-sources-package',
])
// Left out on purpose: `--script` and `--no-binary` are flags for `uv run` but take a value elsewhere.
const VALUE_SHORT = new Set(['-p', '-i', '-f', '-P', '-C', '-r', '-c', '-b', '-o', '-e'])

/** Commands grouped under a word: `uv pip install`, `uv tool run`. */
const GROUPS = new Set(['pip', 'tool', 'python', 'cache', 'self', 'auth', 'workspace', 'build-backend'])
/** Commands whose first positional is a program: what follows belongs to it. */
const RUNS_PROGRAM = new Set(['run', 'tool run'])

export interface UvCommand {
  /** `pip install`, `add`, `tool run`; empty for bare `uv`. */
  verb: string
  /** The arguments uv itself reads: everything before the program of `uv run`/`uvx` or a `--`. */
  own: string[]
}

function takesValue(arg: string): boolean {
  if (arg.includes('=')) return false
  return arg.startsWith('--') ? VALUE_LONG.has(arg) : VALUE_SHORT.has(arg)
}

/** Splits uv's arguments; `prefix` is the implied subcommand (`uvx` is `uv tool run`). */
export function parseUvCommand(args: readonly string[], prefix: readonly string[] = []): UvCommand {
  const words = [...prefix]
  const done = (end: number): UvCommand => ({ verb: words.join(' '), own: args.slice(0, end) })
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!
    if (arg === '--') return done(index)
    if (arg.startsWith('-') && arg !== '-') {
      if (takesValue(arg)) index++
      continue
    }
    if (words.length === 0 || (words.length === 1 && GROUPS.has(words[0]!))) {
      words.push(arg)
      continue
    }
    if (RUNS_PROGRAM.has(words.join(' '))) return done(index)
  }
  return done(args.length)
}

/** Option specs for uv's index options; `-i=URL` keeps clap's `=` out of the value. */
/** uv's short options that take a value (uv-cli lib.rs): in a cluster, what follows one is its value. */
const UV_VALUE_LETTERS = 'ifrcpPoCet'

export const UV_OPTIONS = {
  defaultIndex: { long: ['--default-index'], takesValue: true },
  // clap reads a short cluster as flags then one valued option (`-qi URL`, `-qiURL`); these are uv's valued letters.
  indexUrl: { long: ['--index-url'], short: ['-i'], takesValue: true, clusterValueLetters: UV_VALUE_LETTERS },
  noIndex: { long: ['--no-index'], takesValue: false },
  requirements: { long: ['--requirements', '--requirement', '--constraints', '--constraint', '--overrides', '--override', '--with-requirements'], short: ['-r', '-c'], takesValue: true, clusterValueLetters: UV_VALUE_LETTERS },
  configFile: { long: ['--config-file'], takesValue: true },
  noConfig: { long: ['--no-config'], takesValue: false },
  directory: { long: ['--directory', '--project'], takesValue: true },
  frozen: { long: ['--frozen'], takesValue: false },
  offline: { long: ['--offline'], takesValue: false },
  indexStrategy: { long: ['--index-strategy'], takesValue: true },
  extraIndexes: { long: ['--index', '--extra-index-url', '--find-links'], short: ['-f'], takesValue: true, clusterValueLetters: UV_VALUE_LETTERS },
} satisfies Record<string, OptionSpec>

export function findUvOptions(own: readonly string[], spec: OptionSpec): FoundOption[] {
  return findOptions(own, spec).map(found => ({ ...found, value: found.value?.replace(/^=/, '') }))
}

/** Where uv's own arguments start in a command line: after `uv`, `uvx`, or `python -m uv`. */
export function argsStart(argv: readonly string[]): number {
  return /^uvx?(\.exe)?$/.test(basename(argv[0] ?? '')) ? 1 : argv.indexOf('-m') + 2
}

/** The command line with the value of one found option replaced, in whichever form it was given. */
export function replaceValue(argv: string[], start: number, found: FoundOption, url: string): string[] {
  const at = start + found.index
  const copy = [...argv]
  const arg = copy[at]!
  if (arg === found.name) copy[at + 1] = url
  else copy[at] = arg.startsWith('--') ? `${found.name}=${url}` : `${found.name}${arg.startsWith(`${found.name}=`) ? '=' : ''}${url}`
  return copy
}
