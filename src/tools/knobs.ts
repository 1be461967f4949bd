import { findOptions } from './argv/args.js'
import { findEnv } from './npm-family.js'
import type { ToolAdapter, ToolContext, ToolKnobs } from './types.js'

/**
 * Whether the person already set the tool's own timeout or retries (ToolAdapter.knobs): on its command line, in a
 * variable, or in one of its config files, in that order. resilient never changes them; when the person set one, no
 * attempt is left before the tool's own timeout ends it (src/retry/hedge.ts).
 */
export function findUserKnobs(adapter: Pick<ToolAdapter, 'knobs' | 'configFiles'>, context: ToolContext): ToolKnobs {
  const { knobs, configFiles } = adapter
  if (!knobs) return { userSet: false }
  // npx or `pnpm dlx` fetching its program is an install: a silent registry may be left for a mirror like any other,
  // and never once the program has started (src/run/child-exec.ts stops listening to the watch then).
  const flag = knobs.options && findOptions(context.args, knobs.options)[0]
  if (flag) return { userSet: true, origin: flag.name }
  const variable = knobs.envIgnoresCase ? findEnv(context.env, knobs.env)?.name : knobs.env.find(name => context.env[name])
  if (variable) return { userSet: true, origin: variable }
  const setting = knobs.settings?.length ? configFiles?.find(knobs.settings, context) : undefined
  return setting ? { userSet: true, origin: setting } : { userSet: false }
}
