import envPaths from 'env-paths'
import { join } from 'node:path'

// Where resilient keeps its own files: the state (mirror health, learned fixes, trusted configs, run logs) and the
// user config. The one place that knows these directories.

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

/** Where run logs go, one JSON file per run: `<state dir>/logs` (RESILIENT_STATE_DIR overrides the state dir). */
export function logsDirectory(env: NodeJS.ProcessEnv): string {
  return join(stateDir(env), 'logs')
}

/**
 * The user config directory: $XDG_CONFIG_HOME/resilient, else the platform's (env-paths: ~/.config/resilient on
 * Linux, ~/Library/Preferences/resilient on macOS, %APPDATA%\resilient\Config on Windows).
 */
function userConfigDir(env: NodeJS.ProcessEnv): string {
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'resilient')
  return envPaths('resilient', { suffix: '' }).config
}

/** The file `resilient mirrors use/add/remove` edit; JSON, so that a program can write it back. */
export function userConfigFile(env: NodeJS.ProcessEnv): string {
  return join(userConfigDir(env), 'config.json')
}
