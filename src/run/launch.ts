import { LAUNCH_VARIABLES, readLaunchContext, setLaunchContext, type LaunchContext } from '../exec/launch-context.js'
import { restoreDroppedVariables } from '../exec/launch-environment.js'
import { deferExtraCaCerts } from '../own-trust.js'

/**
 * What the launcher (bin/resilient) read before Node started, taken from `env` and removed from it so that no child
 * sees it (docs/process.md); with the variables its shell could not pass on put back into `env`. The tool runs of
 * this process start their children with it. NODE_EXTRA_CA_CERTS is put back too: the launcher kept it from Node's
 * start, and resilient's own TLS connections read it when they need it (src/own-trust.ts).
 */
export function adoptLaunchContext(env: NodeJS.ProcessEnv): LaunchContext {
  restoreDroppedVariables(env, env[LAUNCH_VARIABLES.environment])
  // NODE_EXTRA_CA_CERTS as the person set it (empty included), which the launcher kept from Node's start.
  const extraCa = env[LAUNCH_VARIABLES.extraCaCerts]
  const deferred = extraCa !== undefined && !Object.hasOwn(env, 'NODE_EXTRA_CA_CERTS')
  if (deferred) env.NODE_EXTRA_CA_CERTS = extraCa
  deferExtraCaCerts(deferred ? extraCa : undefined)
  const launch = readLaunchContext(env)
  for (const name of Object.values(LAUNCH_VARIABLES)) delete env[name]
  setLaunchContext(launch)
  return launch
}
