import { findOptions, firstPositional, type OptionSpec } from '../argv/args.js'
import { readPipConfig, type PipSetting } from '../config/pip-config.js'
import { PIP_INDEX_FLAGS } from '../argv/python-index-flags.js'
import { readRequirementIndexOptions, requirementFilesIndex, type RequirementIndexLine } from '../config/requirement-files.js'
import type { IndexChoice, ToolContext } from '../types.js'

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

// pip reads booleans with strtobool (utils/misc.py): these are its false values.
const FALSE = /^(0|false|no|off|n|f)$/i

/**
 * `no-index` wherever pip reads it: the command line, a requirement file (anywhere in it: pip req_file.py keeps it
 * once set), `PIP_NO_INDEX`, or a config file's `[global]`/`[<command>]` section; the variable overrides the files.
 * Once set, pip ignores every index URL, the command line's included (cli/req_command.py), so nothing may be sent
 * to an index, a mirror or a probe.
 */
function findNoIndex(args: readonly string[], env: NodeJS.ProcessEnv, fileLines: readonly RequirementIndexLine[], config: () => PipSetting | undefined, isolated: boolean): IndexChoice | undefined {
  if (findOptions(args, PIP_INDEX_FLAGS.noIndex)[0]) return { url: 'none', origin: '--no-index' }
  const inFile = fileLines.find(line => line.none)
  if (inFile) return { url: 'none', origin: inFile.origin, locked: true }
  const fromEnv = isolated ? undefined : pipEnv(env, ['no-index'])
  if (fromEnv) return FALSE.test(fromEnv.value) ? undefined : { url: 'none', origin: fromEnv.name }
  const fromFile = config()
  if (fromFile?.unreadable) return { url: '', origin: fromFile.origin, privateBecause: `${fromFile.origin} could not be read (${fromFile.unreadable})` }
  return fromFile && !FALSE.test(fromFile.value) ? { url: 'none', origin: fromFile.origin } : undefined
}

export function findPipIndex({ args, env, cwd, home, executable }: ToolContext): IndexChoice | null {
  // --isolated skips PIP_* variables and the user's files; the global and site files still count.
  const isolated = findOptions(args, ISOLATED).length > 0
  const config = (key: string) => readPipConfig(key, pipSubcommand(args), env, home, { executable, isolated, cwd })
  const fileLines = findOptions(args, PIP_INDEX_FLAGS.nested).flatMap(option => option.value ? readRequirementIndexOptions(option.value, cwd, PIP_INDEX_FLAGS) : [])
  const noIndex = findNoIndex(args, env, fileLines, () => config('no-index'), isolated)
  if (noIndex) return noIndex
  const fromArgs = findOptions(args, PIP_INDEX_FLAGS.index).at(-1)
  // A requirement file's --index-url replaces the index list, whatever the command line says (pip req_file.py).
  const fileIndex = requirementFilesIndex(fileLines)
  if (fileIndex) return { ...fileIndex, locked: true }
  if (fromArgs?.value !== undefined) return { url: fromArgs.value, origin: fromArgs.name }
  const fromEnv = isolated ? undefined : pipEnv(env, ['index-url', 'pypi-url'])
  if (fromEnv) return { url: fromEnv.value, origin: fromEnv.name }
  const setting = config('index-url') ?? config('pypi-url')
  if (setting?.unreadable) return { url: '', origin: setting.origin, privateBecause: `${setting.origin} could not be read (${setting.unreadable})` }
  return setting ? { url: setting.value, origin: setting.origin } : null
}
