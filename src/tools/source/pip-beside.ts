import { findOptions } from '../argv/args.js'
import { PIP_BESIDE_FLAGS, PIP_INDEX_FLAGS } from '../argv/python-index-flags.js'
import { readPipConfig } from '../config/pip-config.js'
import { readRequirementOptionValues } from '../config/requirement-files.js'
import type { SourceBeside, ToolContext } from '../types.js'
import { pipEnv, pipSubcommand } from './pip-index.js'

const ISOLATED = { long: ['--isolated'], minPrefix: 4, takesValue: false }
const split = (value: string) => value.split(/\s+/).filter(Boolean)

/**
 * The sources pip reads names from beside its index in this run, wherever pip reads them: `--extra-index-url` and
 * `--find-links` on the command line and in requirement files (nested ones included), PIP_EXTRA_INDEX_URL and
 * PIP_FIND_LINKS, and pip.conf (not with `--isolated`). pip merges every source's candidates and takes the newest,
 * so a name from any of them could be shadowed by an index that also lists it.
 */
export function pipSourcesBeside({ args, env, cwd, home, executable }: ToolContext): SourceBeside[] {
  const isolated = findOptions(args, ISOLATED).length > 0
  const command = pipSubcommand(args)
  const flags = [PIP_BESIDE_FLAGS.extraIndex, PIP_BESIDE_FLAGS.findLinks]
  const found: Omit<SourceBeside, 'merged'>[] = flags.flatMap(spec => findOptions(args, spec).flatMap(option => option.value ? [{ url: option.value, origin: option.name }] : []))
  for (const option of findOptions(args, PIP_INDEX_FLAGS.nested)) {
    if (option.value) found.push(...readRequirementOptionValues(option.value, cwd, flags).map(({ value, origin }) => ({ url: value, origin })))
  }
  if (!isolated) {
    for (const name of ['extra-index-url', 'find-links']) {
      const variable = pipEnv(env, [name])
      if (variable) found.push(...split(variable.value).map(url => ({ url, origin: variable.name })))
    }
  }
  for (const key of ['extra-index-url', 'find-links']) {
    const setting = readPipConfig(key, command, env, home, { executable, isolated, cwd })
    // A config file resilient cannot read may name anything: a source of its own, never known to be public.
    if (setting?.unreadable) found.push({ url: '', origin: `${setting.origin} (unreadable)` })
    else if (setting) found.push(...split(setting.value).map(url => ({ url, origin: setting.origin })))
  }
  return found.map(source => ({ ...source, merged: true }))
}
