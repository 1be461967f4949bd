import { firstPositional } from './args.js'
import { addOptions, NPM_FETCH_KNOBS } from '../npm-family.js'
import type { CommandLine } from '../types.js'

// Options that take a value and may stand before the command (`npm --registry X install`).
export const NPM_GLOBAL_WITH_VALUE = ['--registry', '--reg', '--userconfig', '--globalconfig', '--cache', '--prefix', '-C', '--loglevel',
  '--workspace', '-w', '--proxy', '--https-proxy', '--noproxy', '--cafile', '--ca', '--cert', '--key', '--omit', '--include',
  '--before', '--install-strategy', '--otp', '--replace-registry-host', '--location', '--logs-dir', ...NPM_FETCH_KNOBS.map(knob => `--${knob}`)]

// `npm init <initializer>` is `npm exec create-<initializer>` (npm's docs, init.md); `create` and `innit` are init.
const INIT = new Set(['init', 'create', 'innit'])

/** npm's verb, with `init <initializer>` read as the exec it is; `init` alone writes a package.json. */
export function npmVerbOf(args: readonly string[]): string | undefined {
  const verb = firstPositional(args, NPM_GLOBAL_WITH_VALUE)
  if (!verb || !INIT.has(verb.value)) return verb?.value
  return firstPositional(args.slice(verb.index + 1), NPM_GLOBAL_WITH_VALUE) ? 'exec' : verb.value
}

/** npx, or `npm exec|x|init <initializer>`: npm fetches a package and runs its program with the arguments after its name. */
function runsProgram(argv: readonly string[]): boolean {
  return /(^|\/)npx(\.cmd)?$/.test(argv[0] ?? '') || ['exec', 'x'].includes(npmVerbOf(argv.slice(1)) ?? '')
}

/**
 * Adds npm options for one attempt (a registry, the relay's settings) where they are npm's own. After the program's
 * name they would be the program's arguments (npx gives it everything after the package, bin/npx-cli.js): for a
 * command that runs a program they go right after `npm`/`npx`, before the verb and the package; for any other they
 * go last (before a `--`), after the user's own, since the last occurrence of an option wins.
 */
export function addNpmOptions(command: CommandLine, ...options: string[]): CommandLine {
  if (!runsProgram(command.argv)) return addOptions(command, ...options)
  return { ...command, argv: [command.argv[0]!, ...options, ...command.argv.slice(1)] }
}
