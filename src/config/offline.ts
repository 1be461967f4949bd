import { existsSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, isAbsolute, resolve } from 'node:path'
import { ConfigError } from '../errors.js'
import type { Ecosystem } from '../mirrors/types.js'
import type { RunResult } from '../plan/types.js'
import type { LoadedConfig } from './load.js'

/** How a command runs with no network: arguments and variables added, and where the tool will look instead. */
export interface OfflineMode {
  args: string[]
  env: Record<string, string>
  /** For the error when a package is not there: `the wheelhouse /srv/wheels`. */
  where: string
}

// Per ecosystem, the spelling its main tool accepts (pip and `uv pip`: --no-index --find-links; npm, pnpm, yarn 1,
// conda and cargo: --offline; go: GOPROXY=off). A tool that spells it differently would need an adapter field.
const OFFLINE = {
  pypi: wheelhouse => ({ args: ['--no-index', '--find-links', wheelhouse!], env: {}, where: `the wheelhouse ${wheelhouse}` }),
  npm: () => ({ args: ['--offline'], env: {}, where: 'the npm cache' }),
  conda: () => ({ args: ['--offline'], env: {}, where: 'the conda package cache' }),
  crates: () => ({ args: ['--offline'], env: {}, where: "cargo's local registry cache" }),
  go: () => ({ args: [], env: { GOPROXY: 'off' }, where: 'the Go module cache' }),
} satisfies Record<Ecosystem, (wheelhouse?: string) => OfflineMode>

/** A path in a config file is relative to that file; one from the environment or a flag, to the working directory. */
function resolvePath(path: string, origin: string, cwd: string, home: string): string {
  if (path === '~' || path.startsWith('~/')) return resolve(home, path.slice(2))
  return resolve(isAbsolute(origin) ? dirname(origin) : cwd, path)
}

/** The offline form of a network command of `ecosystem`, or a ConfigError naming where it looked. */
export function planOffline(ecosystem: Ecosystem, loaded: LoadedConfig, cwd: string, env: NodeJS.ProcessEnv): OfflineMode {
  if (ecosystem !== 'pypi') return OFFLINE[ecosystem]()
  const configured = loaded.config.pypi?.wheelhouse
  if (!configured) {
    const looked = [...loaded.files, 'RESILIENT_PYPI_WHEELHOUSE'].join(', ')
    throw new ConfigError(`Offline mode: pip can install only from a local wheelhouse, and none is configured (looked for "pypi.wheelhouse" in ${looked}; user config ${loaded.userConfigFile}).`,
      `Set "pypi": { "wheelhouse": "<dir>" } in ${loaded.userConfigFile} or a project .resilientrc, and fill it on a machine with network: pip download -r requirements.txt -d <dir>. Or run without --offline.`)
  }
  const origin = loaded.origins['pypi.wheelhouse'] ?? 'the configuration'
  const dir = resolvePath(configured, origin, cwd, env.HOME || homedir())
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new ConfigError(`Offline mode: the wheelhouse ${dir} (pypi.wheelhouse, set in ${origin}) is not a directory.`,
      `Create it and fill it on a machine with network: pip download -r requirements.txt -d ${dir}. Or run without --offline.`)
  }
  return OFFLINE.pypi(dir)
}

/** Said when an offline run fails: where it looked, and how to fill it. */
export function offlineFailureHint(mode: OfflineMode, result: Pick<RunResult, 'finalDiagnosis'>): string {
  const name = result.finalDiagnosis?.facts.package
  return `offline: looked only in ${mode.where}${name ? ` and ${name} is not there` : ''}. Fill it on a machine with network (pip download <package> -d <dir> for a wheelhouse), or run without --offline.`
}
