import { LAUNCH_VARIABLES, readLaunchContext, setLaunchContext, type LaunchContext } from '../exec/launch-context.js'
import { restoreDroppedVariables } from '../exec/launch-environment.js'

/**
 * What the launcher (bin/resilient) read before Node started, taken from `env` and removed from it so that no child
 * sees it (docs/process.md); with the variables its shell could not pass on put back into `env`. The tool runs of
 * this process start their children with it.
 */
export function adoptLaunchContext(env: NodeJS.ProcessEnv): LaunchContext {
  restoreDroppedVariables(env, env[LAUNCH_VARIABLES.environment])
  const launch = readLaunchContext(env)
  for (const name of Object.values(LAUNCH_VARIABLES)) delete env[name]
  setLaunchContext(launch)
  return launch
}
