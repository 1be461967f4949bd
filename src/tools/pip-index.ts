import { findOptions, firstPositional, type OptionSpec } from './args.js'
import { readPipConfig } from './pip-config.js'
import { PIP_INDEX_FLAGS } from './python-index-flags.js'
import { readRequirementIndexOptions, requirementFilesIndex } from './requirement-files.js'
import type { IndexChoice, ToolContext } from './types.js'

/**
 * Every spelling of pip's index options, as pip's optparse parser reads them (pip cli/cmdoptions.py, parser.py):
 * unique prefixes of long names (`--ind`, `--index`), `=` and separate values, attached short values (`-iURL`) and
 * short clusters (`-qi URL`, `-qiURL`, `-vvi URL`: the letters before `i` are flags).
 */
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
  if (findOptions(args, PIP_INDEX_FLAGS.noIndex)[0]) return { url: 'none', origin: '--no-index' }
  const fromArgs = findOptions(args, PIP_INDEX_FLAGS.index).at(-1)
  // A requirement file's --index-url replaces the index list, whatever the command line says (pip req_file.py).
  const fileIndex = requirementFilesIndex(findOptions(args, PIP_INDEX_FLAGS.nested).flatMap(option => option.value ? readRequirementIndexOptions(option.value, cwd, PIP_INDEX_FLAGS) : []))
  if (fileIndex) return { ...fileIndex, locked: true }
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
