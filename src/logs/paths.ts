import { join } from 'node:path'
import { stateDir } from '../state/paths.js'

/** Where run logs go, one JSON file per run: `<state dir>/logs` (RESILIENT_STATE_DIR overrides the state dir). */
export function logsDirectory(env: NodeJS.ProcessEnv): string {
  return join(stateDir(env), 'logs')
}
