import { LAUNCH_VARIABLES, readLaunchContext, setLaunchContext, type LaunchContext } from '../exec/launch-context.js'

/**
 * What the launcher (bin/resilient) read before Node started, taken from `env` and removed from it so that no child
 * sees it (docs/process.md). The tool runs of this process start their children with it.
 */
export function adoptLaunchContext(env: NodeJS.ProcessEnv): LaunchContext {
  const launch = readLaunchContext(env)
  for (const name of Object.values(LAUNCH_VARIABLES)) delete env[name]
  setLaunchContext(launch)
  return launch
}
