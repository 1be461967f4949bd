// Where pnpm reads its settings, for one invocation: its project folder, pnpm-workspace.yaml and config.yaml, its
// npmrc files, and which variables and npmrc keys its major reads (src/tools/config/pnpm-major.ts).
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { findOptions } from '../argv/args.js'
import { findUp } from '../lockfile/locked-registries.js'
import { findEnv } from '../npm-family.js'
import type { ToolContext } from '../types.js'
import { npmrcFiles } from './npmrc.js'
import { pnpmMajor, pnpmReadsNpmConfig } from './pnpm-major.js'
import { readYamlFile } from './yaml-file.js'

const camel = (key: string) => key.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase())

const DIR = { long: ['--dir'], short: ['-C'], takesValue: true, anyDashes: true }
export const GLOBAL = { long: ['--global'], short: ['-g'], takesValue: false, anyDashes: true }

/** The folder pnpm works in: `-C`/`--dir` (pnpm takes it as the project's prefix), else the current one. */
export function pnpmDir({ args, cwd }: ToolContext): string {
  const dir = findOptions(args, DIR).at(-1)?.value
  return dir ? resolve(cwd, dir) : cwd
}

/** pnpm's major for this invocation where its files tell it (pnpmMajor), from the folder it works in. */
export const pnpmMajorHere = (context: ToolContext) => pnpmMajor(context.executable, pnpmDir(context))

/**
 * The variables that set `key` (pnpm.io configuring.md): pnpm_config_<key>, and npm_config_<key> too unless pnpm is
 * known to be 11 or later, which reads no npm_config_ setting.
 */
export function pnpmEnvNames(key: string, context: ToolContext): string[] {
  return pnpmReadsNpmConfig(pnpmMajorHere(context)) ? [`pnpm_config_${key}`, `npm_config_${key}`] : [`pnpm_config_${key}`]
}

/** pnpm-workspace.yaml (10.x+) and the global config.yaml (11.x) hold settings in camelCase; `registries.default` too. */
export function workspaceSetting(keys: readonly string[], context: ToolContext): { value: string; origin: string } | undefined {
  const workspace = findOptions(context.args, GLOBAL).length ? undefined : findUp(pnpmDir(context), ['pnpm-workspace.yaml'])
  const files = [workspace, join(pnpmConfigDir(context.env, context.home), 'config.yaml')].filter(Boolean) as string[]
  for (const file of files) {
    const data = readYamlFile(file)
    for (const key of keys) {
      const value = key === 'registry' ? data?.registry ?? (data?.registries as Record<string, unknown> | undefined)?.default : data?.[camel(key)]
      if (typeof value === 'string' || typeof value === 'number') return { value: String(value), origin: file }
    }
  }
  return undefined
}

/**
 * pnpm's configuration folder on Linux (@pnpm/config getConfigDir): config.yaml, auth.ini (11.x), rc (10.x). pnpm
 * takes the home folder from os.homedir(), which falls back to the passwd entry when HOME is unset: so does this,
 * where a home of '' read `.config/pnpm` relative to the working folder.
 */
const pnpmConfigDir = (env: NodeJS.ProcessEnv, home: string | undefined) => join(env.XDG_CONFIG_HOME || join(home || homedir(), '.config'), 'pnpm')

/**
 * The user npmrc pnpm 11+ reads (@pnpm/config reader getNpmrcAuthFile, pnpm 11.29): `--npmrc-auth-file`,
 * `--userconfig`, then pnpm_config_npmrc_auth_file, pnpm_config_userconfig, `npmrcAuthFile` in config.yaml, and only
 * then npm_config_userconfig, else ~/.npmrc (readNpmrcSources), which is what pnpm ≤10 reads (it has no pnpm_config_
 * names for it). The command line's options are left to `trust`: no variable overrides them.
 */
export function pnpmUserNpmrc(env: NodeJS.ProcessEnv, home = env.HOME || homedir()): string | undefined {
  const own = findEnv(env, ['pnpm_config_npmrc_auth_file'])?.value ?? findEnv(env, ['pnpm_config_userconfig'])?.value
  if (own) return own
  const yaml = readYamlFile(join(pnpmConfigDir(env, home), 'config.yaml'))?.npmrcAuthFile
  return typeof yaml === 'string' ? yaml : findEnv(env, ['npm_config_userconfig'])?.value ?? join(home, '.npmrc')
}

/**
 * `.npmrc` of the project (`-C`/`--dir` or the nearest folder up with package.json) and of the workspace root
 * (the folder of pnpm-workspace.yaml), neither in global mode, then the user's (pnpm 11's choice of it first), pnpm
 * 10's global `rc` file and pnpm 11's `auth.ini` (@pnpm/npm-conf, @pnpm/config readNpmrcSources); npm's global npmrc
 * is npm's, not pnpm's.
 */
export function pnpmrcFiles(context: ToolContext): string[] {
  const configDir = pnpmConfigDir(context.env, context.home)
  const dir = pnpmDir(context)
  const [project, ...others] = npmrcFiles({ ...context, cwd: dir, executable: undefined })
  const workspace = findUp(dir, ['pnpm-workspace.yaml'])
  const local = findOptions(context.args, GLOBAL).length ? [] : [project!, ...(workspace ? [join(dirname(workspace), '.npmrc')] : [])]
  const user = pnpmUserNpmrc(context.env, context.home)
  return [...new Set([...local, ...(user ? [resolve(dir, user)] : []), ...others, join(configDir, 'rc'), join(configDir, 'auth.ini')])]
}
