import { findOptions } from '../argv/args.js'
import { findPipIndex, pipEnv, pipSubcommand } from './pip-index.js'
import { sitePrefix } from '../config/pip-site.js'
import { PIP_INDEX_FLAGS } from '../argv/python-index-flags.js'
import type { IndexChoice, SourceQuestion, ToolContext } from '../types.js'

const ISOLATED = { long: ['--isolated'], minPrefix: 4, takesValue: false }
// pip's strtobool (utils/misc.py) false values.
const FALSE = /^(0|false|no|off|n|f)$/i

/** `os.devnull`: pip then reads no config file at all (configuration.py iter_config_files). */
const noConfigFiles = (env: NodeJS.ProcessEnv) => env.PIP_CONFIG_FILE === '/dev/null' || env.PIP_CONFIG_FILE === 'nul'

/** Python's repr of a str, as `pip config list` prints values: quoted, backslash-escaped. */
function unrepr(text: string): string | undefined {
  const match = /^(['"])(.*)\1$/.exec(text)
  return match ? match[2]!.replace(/\\(.)/g, '$1') : undefined
}

/**
 * `pip config list`: every value of every file pip reads and of its `PIP_*` variables, as `<section>.<key>='value'`
 * (`:env:` for variables). What an install command sees is the variable, else its command's section, else
 * `[global]` (pip cli/parser.py `_get_ordered_config_items`).
 */
function readConfigList(stdout: string, command: string | undefined): IndexChoice | null | undefined {
  const values = new Map<string, string>()
  let understood = stdout.trim() === ''
  for (const line of stdout.split(/\r?\n/)) {
    const match = /^([^\s.=]+)\.([^\s=]+)=(.*)$/.exec(line.trim())
    const value = match ? unrepr(match[3]!) : undefined
    if (match && value !== undefined) {
      values.set(`${match[1]}.${match[2]}`, value)
      understood = true
    }
  }
  if (!understood) return undefined
  const pick = (key: string) => [':env:', command, 'global'].filter(Boolean).map(section => ({ key: `${section}.${key}`, value: values.get(`${section}.${key}`) })).find(entry => entry.value !== undefined)
  const noIndex = pick('no-index')
  if (noIndex && !FALSE.test(noIndex.value!)) return { url: 'none', origin: `pip config list: ${noIndex.key}` }
  const index = pick('index-url') ?? pick('pypi-url')
  return index?.value ? { url: index.value, origin: `pip config list: ${index.key}` } : null
}

/**
 * pip's index comes from its config files unless the command line, a requirement file or a variable decides it;
 * the one file resilient may not find is the interpreter's own `<sys.prefix>/pip.conf` behind a shim. Then pip,
 * started the way the person started it, says what it reads: `pip config list`.
 */
export const PIP_SOURCE: SourceQuestion = {
  uncertainty(context: ToolContext) {
    const { args, env, executable, cwd, home } = context
    // The command line and requirement files beat every file; a true PIP_NO_INDEX, or PIP_INDEX_URL with a false one, too.
    if (findOptions(args, PIP_INDEX_FLAGS.index).length || findOptions(args, PIP_INDEX_FLAGS.noIndex).length || findPipIndex(context)?.locked) return undefined
    const noIndex = findOptions(args, ISOLATED).length ? undefined : pipEnv(env, ['no-index'])
    if (noConfigFiles(env) || (noIndex && (!FALSE.test(noIndex.value) || pipEnv(env, ['index-url', 'pypi-url'])))) return undefined
    return sitePrefix(env, executable, { cwd, home }).uncertain
  },
  command: ({ args }, launcher) => ({ argv: [...launcher, ...(findOptions(args, ISOLATED).length ? ['--isolated'] : []), 'config', 'list'] }),
  read: (stdout, { args }) => readConfigList(stdout, pipSubcommand(args)),
}
