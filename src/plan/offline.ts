import { existsSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, isAbsolute, resolve } from 'node:path'
import { ConfigError } from '../errors.js'
import type { RunResult } from './types.js'
import type { ToolAdapter } from '../tools/types.js'
import type { LoadedConfig } from '../config/load.js'

/** How a command runs with no network: arguments and variables added, and where the tool will look instead. */
export interface OfflineMode {
  args: string[]
  env: Record<string, string>
  /** For the error when a package is not there: `the wheelhouse /srv/wheels`. */
  where: string
}

/** A path in a config file is relative to that file; one from the environment or a flag, to the working directory. */
function resolvePath(path: string, origin: string, cwd: string, home: string): string {
  if (path === '~' || path.startsWith('~/')) return resolve(home, path.slice(2))
  return resolve(isAbsolute(origin) ? dirname(origin) : cwd, path)
}

/**
 * The offline form of a network command of `adapter`, in the tool's own spelling (ToolAdapter.offline), or a
 * ConfigError: the tool has none, or it needs a wheelhouse and none is configured or it is not a directory.
 */
export function planOffline(adapter: Pick<ToolAdapter, 'name' | 'offline'>, loaded: LoadedConfig, cwd: string, env: NodeJS.ProcessEnv): OfflineMode {
  const form = adapter.offline
  if (!form) {
    throw new ConfigError(`Offline mode: ${adapter.name} has no flag or setting that makes it install without network, so resilient cannot run it offline.`,
      `Run without --offline (and without "offline": true in the configuration) for ${adapter.name}.`)
  }
  const added = { ...form.env }
  if (!form.wheelhouse) return { args: [...form.args], env: added, where: form.where }
  const dir = wheelhouse(adapter.name, loaded, cwd, env)
  return { args: [...form.args, form.wheelhouse.flag, dir], env: added, where: `${form.where} ${dir}` }
}

function wheelhouse(tool: string, loaded: LoadedConfig, cwd: string, env: NodeJS.ProcessEnv): string {
  const configured = loaded.config.pypi?.wheelhouse
  if (!configured) {
    const looked = [...loaded.files, 'RESILIENT_PYPI_WHEELHOUSE'].join(', ')
    throw new ConfigError(`Offline mode: ${tool} can install only from a local wheelhouse, and none is configured (looked for "pypi.wheelhouse" in ${looked}; user config ${loaded.userConfigFile}).`,
      `Set "pypi": { "wheelhouse": "<dir>" } in ${loaded.userConfigFile} or a project .resilientrc, and fill it on a machine with network: pip download -r requirements.txt -d <dir>. Or run without --offline.`)
  }
  const origin = loaded.origins['pypi.wheelhouse'] ?? 'the configuration'
  const dir = resolvePath(configured, origin, cwd, env.HOME || homedir())
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new ConfigError(`Offline mode: the wheelhouse ${dir} (pypi.wheelhouse, set in ${origin}) is not a directory.`,
      `Create it and fill it on a machine with network: pip download -r requirements.txt -d ${dir}. Or run without --offline.`)
  }
  return dir
}

/** Said when an offline run fails: where it looked, and how to fill it. */
export function offlineFailureHint(mode: OfflineMode, result: Pick<RunResult, 'finalDiagnosis'>): string {
  const name = result.finalDiagnosis?.facts.package
  return `offline: looked only in ${mode.where}${name ? ` and ${name} is not there` : ''}. Fill it on a machine with network (pip download <package> -d <dir> for a wheelhouse), or run without --offline.`
}
