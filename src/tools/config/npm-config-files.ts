import { existsSync, readFileSync, realpathSync } from 'node:fs'
import { delimiter, dirname, join, relative, resolve, sep } from 'node:path'
import { findOptions, type OptionSpec } from '../argv/args.js'
import { findEnv } from '../npm-family.js'
import { parseNpmrc } from './npmrc.js'
import type { ToolContext } from '../types.js'

/**
 * The npmrc files npm 9-11 reads for one command, as @npmcli/config loads them (lib/index.js load()): the project
 * file at the local prefix (`--prefix`/`-C`, else the nearest folder up with package.json or node_modules, else the
 * workspace root that lists it; none in global mode), the user file (`--userconfig`, which the project file may
 * set), the global file (`<prefix>/etc/npmrc`, where the prefix may come from any file read before) and npm's
 * built-in file. `uncertain` says why the list may not be npm's own: then npm itself is asked (plan/confirm.ts).
 */
export interface NpmConfigFiles {
  /** Highest precedence first. */
  files: string[]
  uncertain?: string
}

const option = (name: string, takesValue = true): OptionSpec => ({ long: [name], takesValue, anyDashes: true })
const PREFIX: OptionSpec = { long: ['--prefix'], short: ['-C'], takesValue: true, anyDashes: true }
const GLOBAL: OptionSpec = { long: ['--global'], short: ['-g'], takesValue: false, anyDashes: true }
const NO_WORKSPACES = option('--no-workspaces', false)

/** The last value of an option on the command line, else of its `npm_config_*` variable. */
function setting(context: ToolContext, name: string): string | undefined {
  return findOptions(context.args, option(`--${name}`)).at(-1)?.value ?? findEnv(context.env, [`npm_config_${name}`])?.value
}

/** `-g`, `--global`, `--location=global`, or the same in npm_config_* variables. */
export function npmGlobalMode(context: ToolContext): boolean {
  const flag = findOptions(context.args, GLOBAL).at(-1)
  const value = flag ? (context.args[flag.index]!.split('=')[1] ?? 'true') : findEnv(context.env, ['npm_config_global'])?.value
  return (value !== undefined && !/^(false|0|)$/i.test(value)) || setting(context, 'location') === 'global'
}

function readSettings(file: string, env: NodeJS.ProcessEnv): Map<string, string> {
  try {
    return parseNpmrc(readFileSync(file, 'utf8'), env)
  } catch {
    return new Map()
  }
}

function packageJson(dir: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>
  } catch {
    return undefined
  }
}

/** A workspaces glob as map-workspaces reads the common forms (`packages/*`, `apps/**`, `./tool`); undefined for others. */
export function globPattern(glob: string): RegExp | undefined {
  const clean = glob.replace(/^\.\//, '').replace(/\/+$/, '')
  if (/[[\]{}!?]/.test(clean)) return undefined
  const body = clean.split('/').map(part => part === '**' ? '.*' : part.replace(/[.+^$()|\\]/g, '\\$&').replace(/\*/g, '[^/]*')).join('/')
  return new RegExp(`^${body}$`)
}

/** The workspace root that lists `dir` among its workspaces, walking up as npm does; `uncertain` for globs it cannot read. */
function workspaceRoot(dir: string): { root?: string; uncertain?: string } {
  for (let parent = dirname(dir); ; parent = dirname(parent)) {
    const workspaces = packageJson(parent)?.workspaces
    const globs = Array.isArray(workspaces) ? workspaces : (workspaces as { packages?: unknown } | undefined)?.packages
    if (Array.isArray(globs)) {
      const path = relative(parent, dir).split(sep).join('/')
      for (const glob of globs.filter((item): item is string => typeof item === 'string')) {
        const pattern = globPattern(glob)
        if (!pattern) return { uncertain: `the workspaces of ${join(parent, 'package.json')} use a pattern resilient does not read (${glob})` }
        if (pattern.test(path)) return { root: parent }
      }
    }
    if (dirname(parent) === parent) return {}
  }
}

/** npm's local prefix and whether it is certain. */
function localPrefix(context: ToolContext, global: boolean): { dir: string; uncertain?: string } {
  const cli = findOptions(context.args, PREFIX).at(-1)?.value
  if (cli) return { dir: resolve(context.cwd, cli) }
  for (let dir = resolve(context.cwd); ; dir = dirname(dir)) {
    const hasPackage = existsSync(join(dir, 'package.json'))
    if (hasPackage || existsSync(join(dir, 'node_modules'))) {
      if (global || !hasPackage || findOptions(context.args, NO_WORKSPACES).length || setting(context, 'workspaces') === 'false') return { dir }
      const found = workspaceRoot(dir)
      return { dir: found.root ?? dir, uncertain: found.uncertain }
    }
    if (dirname(dir) === dir) return { dir: resolve(context.cwd) }
  }
}

/** The project npm works on (its local prefix: `--prefix`, the nearest package.json, its workspace root); none when global. */
export function npmProjectDir(context: ToolContext): string | undefined {
  const global = npmGlobalMode(context)
  return global ? undefined : localPrefix(context, false).dir
}

/** The program a `#!/usr/bin/env node` script runs: `node` on PATH, as the shell finds it. */
function nodeOnPath(env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, 'node')
    if (existsSync(candidate)) return realpathSync(candidate)
  }
  return undefined
}

/** npm's own folder (the npm package) from its executable: `<npm>/bin/npm-cli.js` behind `npm`, `npx-cli.js` behind `npx`. */
function npmPackageDir(executable: string | undefined): string | undefined {
  if (!executable) return undefined
  try {
    const real = realpathSync(executable)
    return real.endsWith(join('bin', 'npm-cli.js')) || real.endsWith(join('bin', 'npx-cli.js')) ? dirname(dirname(real)) : undefined
  } catch {
    return undefined
  }
}

export function npmConfigFiles(context: ToolContext): NpmConfigFiles {
  const global = npmGlobalMode(context)
  const local = localPrefix(context, global)
  const npmDir = npmPackageDir(context.executable)
  const node = nodeOnPath(context.env)
  const builtinFile = npmDir && join(npmDir, 'npmrc')
  const builtin = builtinFile ? readSettings(builtinFile, context.env) : new Map<string, string>()
  const defaultPrefix = context.env.PREFIX || (node ? dirname(dirname(node)) : undefined)
  // npm's own prefix, from the node that runs it; an npm found elsewhere (a shim) may keep another one: both are read.
  const besideNpm = context.executable && !npmDir ? dirname(dirname(context.executable)) : undefined
  const fromFiles = (key: string, ...maps: Map<string, string>[]) => maps.map(map => map.get(key)).find(Boolean)
  const userDefault = fromFiles('userconfig', builtin) ?? join(context.home, '.npmrc')
  const projectCandidate = join(local.dir, '.npmrc')
  const project = global ? new Map<string, string>() : readSettings(projectCandidate, context.env)
  const userconfig = resolve(context.cwd, setting(context, 'userconfig') ?? fromFiles('userconfig', project) ?? userDefault)
  // npm skips a project file that is the user file itself (a home folder with node_modules).
  const projectFile = global || projectCandidate === userconfig ? undefined : projectCandidate
  const user = readSettings(userconfig, context.env)
  const prefix = findOptions(context.args, PREFIX).at(-1)?.value ?? setting(context, 'prefix') ?? fromFiles('prefix', project, user, builtin) ?? defaultPrefix
  const globalconfig = setting(context, 'globalconfig') ?? fromFiles('globalconfig', project, user, builtin) ?? (prefix && join(resolve(context.cwd, prefix), 'etc', 'npmrc'))
  const globals = [globalconfig, setting(context, 'globalconfig') ? undefined : besideNpm && join(besideNpm, 'etc', 'npmrc')]
  const files = [...new Set([...(projectFile ? [projectFile] : []), userconfig, ...globals.flatMap(file => file ? [resolve(context.cwd, file)] : []), ...(builtinFile ? [builtinFile] : [])])]
  const uncertain = local.uncertain
    ?? (context.executable && !npmDir ? `${context.executable} is not npm's own script (a version manager's shim?), so npm's built-in and global config files are unknown` : undefined)
    ?? (!defaultPrefix && !globalconfig ? 'no node was found on PATH, so npm\'s global config file is unknown' : undefined)
  return { files, ...(uncertain && { uncertain }) }
}
