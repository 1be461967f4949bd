import { withEnv } from './argv/command-line.js'
import { findOptions } from './argv/args.js'
import { REGISTRY_OPTION } from './npm-family.js'
import type { CommandLine, ToolAdapter } from './types.js'

/**
 * What npx, `pnpm dlx` and `bunx` share: the program's arguments follow the package name, so nothing may be appended
 * to their command line; the registry of an attempt goes in the environment instead, which their programs inherit
 * as they inherit every setting of the tool (npm exports its own to its children).
 */

/** The last non-empty line of an output. */
export function lastLine(output: string): string {
  return output.trimEnd().split('\n').at(-1)?.trim() ?? ''
}

/**
 * The registry for one attempt as variables, in both spellings: npm and pnpm read `npm_config_*` in any case and
 * the last spelling in the environment wins, so a user's `NPM_CONFIG_REGISTRY` must not outrank it.
 */
export function registryInEnvironment(command: CommandLine, names: readonly string[], url: string, extra: Record<string, string> = {}): CommandLine {
  return withEnv(command, { ...Object.fromEntries(names.flatMap(name => [[name, url], [name.toUpperCase(), url]])), ...extra })
}

/** A `--registry` typed before the program beats the variable: no mirror can be given to such a command. */
export function typedRegistry(args: readonly string[]): string | undefined {
  return findOptions(args, REGISTRY_OPTION).length
    ? 'a --registry on the command line beats the variable resilient sets for a mirror (and may be the program\'s own option)'
    : undefined
}

/** The adapter of an executable that implies a verb: the tool's own, with the verb's classification and program. */
export function impliedVerbAdapter(tool: ToolAdapter, fields: Pick<ToolAdapter, 'classify' | 'applyIndex' | 'program' | 'noMirrorReason'>): ToolAdapter {
  // No read-only forms: `npx ls` runs a package named ls. No knobs: the program inherits them. No cache bypass: an
  // option for it (`bun --no-cache`) would be appended after the program's name, as the program's argument.
  return { ...tool, ...fields, readOnly: undefined, knobs: undefined, forExecutable: undefined, bypassCache: undefined }
}
