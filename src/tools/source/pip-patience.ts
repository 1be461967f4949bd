import { findOptions } from '../argv/args.js'
import { readPipConfig } from '../config/pip-config.js'
import type { Patience, ToolContext } from '../types.js'
import { pipEnv, pipSubcommand } from './pip-index.js'

const TIMEOUT = { long: ['--timeout', '--default-timeout'], minPrefix: 6, takesValue: true }
const RETRIES = { long: ['--retries'], minPrefix: 5, takesValue: true }
// pip cli/cmdoptions.py: `--timeout` 15 seconds (to connect and for each read), `--retries` 5.
const DEFAULTS = { timeoutSeconds: 15, retries: 5 }

/** A pip setting as pip reads it: the command line, PIP_<NAME>, pip.conf (not with --isolated); undefined when unset. */
function setting(context: ToolContext, option: typeof TIMEOUT, names: string[]): { value: string; origin: string } | undefined {
  const { args, env, home, executable, cwd } = context
  const isolated = args.includes('--isolated')
  const fromArgs = findOptions(args, option).at(-1)
  if (fromArgs?.value !== undefined) return { value: fromArgs.value, origin: fromArgs.name }
  const fromEnv = isolated ? undefined : pipEnv(env, names)
  if (fromEnv) return { value: fromEnv.value, origin: fromEnv.name }
  for (const name of isolated ? [] : names) {
    const found = readPipConfig(name, pipSubcommand(args), env, home, { executable, cwd })
    if (found?.value) return { value: found.value, origin: found.origin }
  }
  return undefined
}

/** How long pip waits on one request, and how many times it asks, as this command sets it (pip's defaults otherwise). */
export function pipPatience(context: ToolContext): Patience {
  const timeout = setting(context, TIMEOUT, ['timeout', 'default-timeout'])
  const retries = setting(context, RETRIES, ['retries'])
  const seconds = Number(timeout?.value)
  const count = Number(retries?.value)
  const timeoutMs = 1000 * (Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULTS.timeoutSeconds)
  const tries = 1 + (Number.isInteger(count) && count >= 0 ? count : DEFAULTS.retries)
  return { timeoutMs, tries, betweenTriesMs: 0, settings: `${timeout ? `${timeout.origin} ${timeout.value}` : `--timeout ${DEFAULTS.timeoutSeconds}`}, ${retries ? `${retries.origin} ${retries.value}` : `--retries ${DEFAULTS.retries}`}` }
}
