import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { findOptions, firstPositional, type OptionSpec } from '../argv/args.js'
import { PIP_INDEX_FLAGS, PIPX_INDEX_FLAG } from '../argv/python-index-flags.js'
import type { IndexChoice, ToolContext } from '../types.js'

/**
 * Where pipx hands pip an index on pip's command line (pipx main.py, pipx_metadata_file.py): there it
 * beats any variable, and pipx records it for later upgrades.
 */
// argparse takes unique prefixes (allow_abbrev): `--pi` is --pip-args.
const PIP_ARGS: OptionSpec = { long: ['--pip-args'], minPrefix: 4, takesValue: true }
const RUN_WITH_VALUE = ['--spec', '--python', '--pip-args', '--index-url', '-i', '--backend', '--cooldown']

/** pipx's own arguments: for `run`, those before the app (what follows belongs to the app). */
export function pipxArgs(args: readonly string[]): { verb: string; own: string[]; packages: string[] } {
  const verb = firstPositional(args)
  if (!verb) return { verb: '', own: [...args], packages: [] }
  const rest = args.slice(verb.index + 1)
  const app = verb.value === 'run' ? firstPositional(rest, RUN_WITH_VALUE) : undefined
  const own = app ? args.slice(0, verb.index + 1 + app.index) : [...args]
  const packages = rest.filter(arg => !arg.startsWith('-'))
  return { verb: verb.value, own, packages }
}

/** `--pip-args "..."`, split the way shlex does for plain words and quotes. */
function splitPipArgs(value: string): string[] {
  return [...value.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map(match => match[1] ?? match[2] ?? match[3]!)
}

/**
 * The pip command pipx runs for this invocation, as far as resilient's readers of pip settings need it: `install`
 * and what pipx hands pip on its command line (main.py get_pip_args: `--index-url`, then `--pip-args` split with
 * shlex). pip reads the rest (PIP_*, pip.conf, NETRC) from the environment pipx passes on whole (util.py run_subprocess).
 */
export function pipCommandOfPipx(args: readonly string[]): string[] {
  const { own } = pipxArgs(args)
  const flag = findOptions(own, PIPX_INDEX_FLAG).at(-1)
  const pipArgs = findOptions(own, PIP_ARGS).flatMap(option => splitPipArgs(option.value ?? ''))
  return ['install', ...(flag?.value ? ['--index-url', flag.value] : []), ...pipArgs]
}

function pipIndexIn(args: readonly string[], origin: string): IndexChoice | undefined {
  // pip's own spellings inside --pip-args and pipx_metadata.json.
  if (findOptions(args, PIP_INDEX_FLAGS.noIndex).length) return { url: 'none', origin }
  const found = findOptions(args, PIP_INDEX_FLAGS.index).at(-1)
  return found?.value ? { url: found.value, origin } : undefined
}

/** pip_args stored at install time and reused by upgrade/reinstall (pipx_metadata_file.py). */
function storedIndex({ env, home }: ToolContext, verb: string, packages: string[]): IndexChoice | undefined {
  const homes = env.PIPX_HOME ? [env.PIPX_HOME] : [join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'pipx'), join(home, '.local', 'pipx')]
  const venvs = homes.map(dir => join(dir, 'venvs')).find(dir => existsSync(dir))
  if (!venvs || !['upgrade', 'reinstall', 'inject', 'upgrade-all', 'reinstall-all'].includes(verb)) return undefined
  const names = verb.endsWith('-all') ? readdirSync(venvs) : packages.slice(0, 1)
  for (const name of names) {
    const file = join(venvs, name, 'pipx_metadata.json')
    try {
      const pipArgs = JSON.parse(readFileSync(file, 'utf8'))?.main_package?.pip_args
      const found = Array.isArray(pipArgs) ? pipIndexIn(pipArgs.map(String), `${file} pip_args`) : undefined
      if (found) return found
    } catch {
      continue
    }
  }
  return undefined
}

/** An index pipx hands to pip on its command line, where it beats any variable. */
export function commandLineIndex(context: ToolContext): IndexChoice | undefined {
  const { verb, own, packages } = pipxArgs(context.args)
  const flag = findOptions(own, PIPX_INDEX_FLAG).at(-1)
  if (flag?.value) return { url: flag.value, origin: flag.name }
  const pipArgs = findOptions(own, PIP_ARGS).map(option => pipIndexIn(splitPipArgs(option.value ?? ''), option.name)).filter(Boolean).at(-1)
  return pipArgs ?? storedIndex(context, verb, packages)
}
