import { findOptions, firstPositional, type OptionSpec } from './args.js'
import { readPipConfig, readRequirementIndexOptions } from './pip-config.js'
import type { IndexChoice, ToolContext } from './types.js'

/**
 * Every spelling of pip's index options, as pip's optparse parser reads them (pip cli/cmdoptions.py, parser.py):
 * unique prefixes of long names (`--ind`, `--index`), `=` and separate values, attached short values (`-iURL`) and
 * short clusters (`-qi URL`, `-qiURL`, `-vvi URL`: the letters before `i` are flags).
 */
// Short options of install/download/wheel/index/list that take a value: in a cluster, what follows one is its value.
const VALUE_LETTERS = 'ifcreCtdw'
export const PIP_INDEX_URL: OptionSpec = { long: ['--index-url', '--pypi-url'], short: ['-i'], minPrefix: 5, takesValue: true, clusterValueLetters: VALUE_LETTERS }
export const PIP_NO_INDEX: OptionSpec = { long: ['--no-index'], minPrefix: 6, takesValue: false }
export const PIP_REQUIREMENT: OptionSpec = { long: ['--requirement', '--constraint'], short: ['-r', '-c'], minPrefix: 9, takesValue: true, clusterValueLetters: VALUE_LETTERS }
const ISOLATED: OptionSpec = { long: ['--isolated'], minPrefix: 4, takesValue: false }

// General options that take a value and may stand before the subcommand (pip --help).
export const PIP_GENERAL_WITH_VALUE = ['--log', '--proxy', '--retries', '--timeout', '--default-timeout', '--exists-action',
  '--trusted-host', '--cert', '--client-cert', '--cache-dir', '--python', '--use-feature', '--use-deprecated',
  '--keyring-provider']

export function pipSubcommand(args: readonly string[]): string | undefined {
  return firstPositional(args, PIP_GENERAL_WITH_VALUE)?.value
}

/**
 * `PIP_<NAME>` as pip reads it: any case after the prefix, `_` or `-` (configuration.py `_normalize_name`), empty
 * values ignored.
 */
export function pipEnv(env: NodeJS.ProcessEnv, names: readonly string[]): { name: string; value: string } | undefined {
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith('PIP_') || !value) continue
    if (names.includes(name.slice(4).toLowerCase().replace(/_/g, '-'))) return { name, value }
  }
  return undefined
}

const FALSE = /^(0|false|no|off)$/i

export function findPipIndex({ args, env, cwd, home, executable }: ToolContext): IndexChoice | null {
  if (findOptions(args, PIP_NO_INDEX)[0]) return { url: 'none', origin: '--no-index' }
  const fromArgs = findOptions(args, PIP_INDEX_URL).at(-1)
  // A requirement file's --index-url replaces the index list, whatever the command line says (pip req_file.py).
  const fromFiles = findOptions(args, PIP_REQUIREMENT).flatMap(option => option.value ? readRequirementIndexOptions(option.value, cwd) : [])
  const fileIndex = fromFiles.filter(line => ['-i', '--index-url', '--no-index'].includes(line.option)).at(-1)
  if (fileIndex) return { url: fileIndex.option === '--no-index' ? 'none' : fileIndex.value ?? '', origin: fileIndex.origin, locked: true }
  if (fromArgs?.value !== undefined) return { url: fromArgs.value, origin: fromArgs.name }
  // --isolated skips PIP_* variables and the user's files; the global and site files still count.
  const isolated = findOptions(args, ISOLATED).length > 0
  const fromEnv = isolated ? undefined : pipEnv(env, ['index-url', 'pypi-url'])
  if (fromEnv) return { url: fromEnv.value, origin: fromEnv.name }
  const noIndex = isolated ? undefined : pipEnv(env, ['no-index'])
  if (noIndex && !FALSE.test(noIndex.value)) return { url: 'none', origin: noIndex.name }
  const config = readPipConfig('index-url', pipSubcommand(args), env, home, { executable, isolated }) ?? readPipConfig('pypi-url', pipSubcommand(args), env, home, { executable, isolated })
  if (config?.unreadable) return { url: '', origin: config.origin, privateBecause: `${config.origin} could not be read (${config.unreadable})` }
  return config ? { url: config.value, origin: config.origin } : null
}
