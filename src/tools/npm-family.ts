import type { OptionSpec } from './argv/args.js'
import type { CommandLine } from './types.js'

/**
 * What npm, pnpm, yarn and bun share: the `--registry` option, case-insensitive `npm_config_*` variables, where
 * extra options go in argv, and the npm registry's URL layout.
 */

/**
 * nopt (npm, pnpm) takes `--reg` (documented shorthand), any unambiguous longer prefix (`--regi=`, `--registr`) and
 * any number of leading dashes (`-registry`, `-reg`): all checked with `npm config get registry` and a real pnpm install.
 */
export const REGISTRY_OPTION: OptionSpec = { long: ['--registry'], minPrefix: 5, takesValue: true, anyDashes: true }
/** pnpm 10 sets any config key with `--config.<key>=<value>` (pnpm.io cli docs); checked with a real `pnpm add`. */
export const PNPM_CONFIG_REGISTRY: OptionSpec = { long: ['--config.registry'], takesValue: true, anyDashes: true }

/** An environment variable by name in any case (`NPM_CONFIG_REGISTRY` is `npm_config_registry`), with its real name. */
export function findEnv(env: NodeJS.ProcessEnv, names: readonly string[]): { name: string; value: string } | undefined {
  const wanted = new Set(names.map(name => name.toLowerCase()))
  // Lower case first: inside npm scripts npm sets the lower-case names itself, and those win.
  const entries = Object.entries(env).sort(([a], [b]) => Number(a !== a.toLowerCase()) - Number(b !== b.toLowerCase()))
  for (const [name, value] of entries) if (value && wanted.has(name.toLowerCase())) return { name, value }
  return undefined
}

/**
 * Adds options for one attempt before a `--` (what follows belongs to another program) or at the end, so they
 * come after the user's own: for npm, pnpm, yarn and bun the last occurrence of an option wins.
 */
export function addOptions(command: CommandLine, ...options: string[]): CommandLine {
  const end = command.argv.indexOf('--')
  const argv = end === -1 ? [...command.argv, ...options] : [...command.argv.slice(0, end), ...options, ...command.argv.slice(end)]
  return { ...command, argv }
}

/** The registry URL as npm clients expect it: with a trailing slash, so relative package paths resolve under it. */
export function withTrailingSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`
}

/** The packument URL: `@scope/name` is one path segment with an escaped slash (`@scope%2fname`). */
export function npmPackageUrl(indexUrl: string, name: string): string {
  return `${withTrailingSlash(indexUrl)}${name.replace('/', '%2f')}`
}

export const NPM_FETCH_KNOBS = ['fetch-timeout', 'fetch-retries', 'fetch-retry-mintimeout', 'fetch-retry-maxtimeout', 'fetch-retry-factor']
/** The fetch knobs as npm and pnpm take them on the command line (`--fetch-timeout=600000`). */
export const NPM_KNOB_OPTION: OptionSpec = { long: NPM_FETCH_KNOBS.map(knob => `--${knob}`), takesValue: true }

/** yarn's default registry (yarn 1 and berry): a front-end serving the npm registry's packages (yarn 1's src/constants.js). */
export const YARN_REGISTRY = 'https://registry.yarnpkg.com/'
