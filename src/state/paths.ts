import envPaths from 'env-paths'
import { join } from 'node:path'

/**
 * Where resilient keeps what it learns between runs: RESILIENT_STATE_DIR, else $XDG_STATE_HOME/resilient, else the
 * platform's (env-paths: ~/.local/state/resilient on Linux, its data directory elsewhere).
 */
export function stateDir(env: NodeJS.ProcessEnv): string {
  if (env.RESILIENT_STATE_DIR) return env.RESILIENT_STATE_DIR
  if (env.XDG_STATE_HOME) return join(env.XDG_STATE_HOME, 'resilient')
  const paths = envPaths('resilient', { suffix: '' })
  // env-paths has no "state" entry; on Linux its log directory is $XDG_STATE_HOME/<name>.
  return process.platform === 'linux' ? paths.log : paths.data
}

/** The one file of mirror health, learned fixes and one-time notices. */
export function stateFile(env: NodeJS.ProcessEnv): string {
  return join(stateDir(env), 'state.json')
}
