import { NPM_UPSTREAM } from '../../mirrors/npm.js'
import { sameIndex } from '../../url.js'
import { findOptions, type OptionSpec } from '../argv/args.js'
import { findEnv, REGISTRY_OPTION } from '../npm-family.js'
import { npmConfigFiles } from '../config/npm-config-files.js'
import type { SourceQuestion, ToolContext } from '../types.js'

// The options that decide which npmrc files npm reads: passed on to `npm config get registry` as they were given.
const CONFIG_OPTIONS: OptionSpec[] = [
  { long: ['--prefix'], short: ['-C'], takesValue: true, anyDashes: true },
  { long: ['--userconfig'], takesValue: true, anyDashes: true },
  { long: ['--globalconfig'], takesValue: true, anyDashes: true },
  { long: ['--location'], takesValue: true, anyDashes: true },
  { long: ['--global'], short: ['-g'], takesValue: false, anyDashes: true },
]

/** `npx`, `/usr/bin/npx`, `npx.cmd` → the npm of the same folder; anything else as it is. */
function npmInsteadOfNpx(word: string): string {
  return word.replace(/(^|[\\/])npx(\.cmd)?$/, '$1npm$2')
}

/** npx gives everything after `--` to the program: its options are not npm's. */
function untilProgram(args: readonly string[]): readonly string[] {
  const end = args.indexOf('--')
  return end === -1 ? args : args.slice(0, end)
}

function configArgs(args: readonly string[]): string[] {
  return CONFIG_OPTIONS.flatMap(spec => findOptions(args, spec)).sort((a, b) => a.index - b.index)
    .flatMap(found => args[found.index]!.includes('=') || found.value === undefined || args[found.index] !== found.name ? [args[found.index]!] : [found.name, found.value])
}

/**
 * npm's registry comes from its npmrc files unless the command line or a variable names it; where resilient cannot
 * be sure which files npm reads (a version manager's shim, a workspaces pattern it does not read), npm says:
 * `npm config get registry` with the same config options, in the same folder. In a workspace npm refuses `config`
 * (ENOWORKSPACES): no answer, so the registry counts as private.
 */
export const NPM_SOURCE: SourceQuestion = {
  uncertainty(context: ToolContext) {
    if (findOptions(context.args, REGISTRY_OPTION).length || findEnv(context.env, ['npm_config_registry'])) return undefined
    return npmConfigFiles(context).uncertain
  },
  // npx has no `config` command: the npm beside it answers for it (the same installation, the same files).
  command: ({ args }, launcher) => ({ argv: [...launcher.map(npmInsteadOfNpx), 'config', 'get', 'registry', ...configArgs(untilProgram(args))] }),
  read(stdout) {
    const url = stdout.trim().split(/\r?\n/).at(-1) ?? ''
    if (!/^https?:\/\//i.test(url)) return undefined
    return sameIndex(url, NPM_UPSTREAM) ? null : { url, origin: 'npm config get registry' }
  },
}
