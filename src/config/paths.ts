import envPaths from 'env-paths'
import { join } from 'node:path'

/**
 * The user config directory: $XDG_CONFIG_HOME/resilient, else the platform's (env-paths: ~/.config/resilient on
 * Linux, ~/Library/Preferences/resilient on macOS, %APPDATA%\resilient\Config on Windows).
 */
export function userConfigDir(env: NodeJS.ProcessEnv): string {
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'resilient')
  return envPaths('resilient', { suffix: '' }).config
}

/** The file `resilient mirrors use/add/remove` edit; JSON, so that a program can write it back. */
export function userConfigFile(env: NodeJS.ProcessEnv): string {
  return join(userConfigDir(env), 'config.json')
}
