// Which yarn a `yarn` command starts, yarn 1 or berry (2+), told from files where they say it for sure, so that an
// unseen project does not pay a `yarn --version` (a second Node start, about a second on a busy machine). Whatever
// the files leave open goes to that question instead: a wrong answer would plan the run for the other yarn.
import { readFileSync, realpathSync, statSync } from 'node:fs'
import { basename, dirname, join, sep } from 'node:path'
import { readJsonFile } from './config/json-file.js'
import { findEnv } from './npm-family.js'
import type { ToolContext } from './types.js'
import { isMissingFile } from '../files/missing-file.js'
import { upwards } from '../files/upwards.js'

export type YarnFamily = 'classic' | 'berry'

const familyOf = (version: unknown): YarnFamily | undefined => {
  const major = typeof version === 'string' ? /^(\d+)\.\d+\.\d+(?:[-+][\w.+-]*)?$/.exec(version)?.[1] : undefined
  return major === undefined ? undefined : Number(major) >= 2 ? 'berry' : 'classic'
}

/**
 * The files that can name a yarnPath (another yarn to hand over to): yarn 1 reads `yarnPath` from .yarnrc and
 * .yarnrc.yml from the folder up, its home and /etc files and $YARN_CONFIG (yarn 1.22 cli/index.js start(), rc.js
 * getRcPaths, which also reads its config folder, ~/.config/yarn, should that be a file); berry from .yarnrc.yml (or
 * $YARN_RC_FILENAME) from the folder up and in the home folder.
 */
function yarnrcFiles({ cwd, env, home }: ToolContext): string[] {
  const rcName = findEnv(env, ['YARN_RC_FILENAME'])?.value
  const files = ['/etc/yarn/config', '/etc/yarnrc', join(home, '.config', 'yarn', 'config'), join(home, '.yarn', 'config'),
    join(home, '.yarnrc'), join(home, '.yarnrc.yml'), ...(env.YARN_CONFIG ? [env.YARN_CONFIG] : [])]
  for (const dir of upwards(cwd)) files.push(...['.yarnrc', '.yarnrc.yml', ...(rcName ? [rcName] : [])].map(name => join(dir, name)))
  return files
}

/**
 * What decides yarn 1 or berry here, the key of `yarn --version`'s kept answer: the rc files above, corepack's
 * `packageManager` in package.json and its .corepack.env from the folder up, YARN_* and COREPACK_* variables.
 */
export function yarnVariantInputs(context: ToolContext): { files: string[]; env: string[] } {
  const projectFiles: string[] = []
  for (const dir of upwards(context.cwd)) projectFiles.push(join(dir, 'package.json'), join(dir, '.corepack.env'))
  return { files: [...yarnrcFiles(context), ...projectFiles], env: Object.keys(context.env).filter(name => /^(YARN|COREPACK)_/i.test(name)) }
}

/**
 * Whether a file could name a yarnPath: any mention counts (a comment too), and so does a file that cannot be read or
 * is no regular file (a pipe yarn would read, resilient never opens). A folder is skipped, as yarn skips it.
 */
function mayNameYarnPath(file: string): boolean {
  try {
    const stat = statSync(file)
    return stat.isDirectory() ? false : !stat.isFile() || /yarn-?path/i.test(readFileSync(file, 'utf8'))
  } catch (error) {
    return !isMissingFile(error)
  }
}

/**
 * corepack's choice (corepack 0.34 specUtils loadSpec): the nearest package.json with a `packageManager`, read from
 * the folder up. Only an exact `yarn@x.y.z` with nothing that could change it (a `devEngines` field, a .corepack.env
 * file, a folder inside node_modules, which corepack skips) is taken; otherwise corepack's own defaults decide.
 */
function corepackFamily(cwd: string): YarnFamily | undefined {
  for (const dir of upwards(cwd)) {
    if (dir.split(sep).includes('node_modules') || present(join(dir, '.corepack.env'))) return undefined
    const file = join(dir, 'package.json')
    if (present(file)) {
      // corepack stops at a package.json it cannot parse: so does this, and leaves the answer to it.
      const manifest = readJsonFile(file)
      if (!manifest || 'devEngines' in manifest) return undefined
      const spec = manifest.packageManager
      if (spec !== undefined) return typeof spec === 'string' && spec.startsWith('yarn@') ? familyOf(spec.slice(5)) : undefined
    }
  }
  return undefined
}

/** Whether a file is there, or might be (a folder that cannot be read). */
function present(file: string): boolean {
  try {
    statSync(file)
    return true
  } catch (error) {
    return !isMissingFile(error)
  }
}

/**
 * The yarn `executable` starts, from the package it belongs to: the `yarn` package (yarn 1, or npm's and the
 * installer's tarball, bin/yarn and bin/yarn.js), `@yarnpkg/cli-dist` (berry), or corepack's dist/yarn.js; else
 * undefined (a version manager's shim, a wrapper script: only the tool can say).
 */
function executableFamily(executable: string, cwd: string): YarnFamily | undefined {
  let file: string
  try {
    file = realpathSync(executable)
  } catch {
    return undefined
  }
  const folder = basename(dirname(file))
  const manifest = readJsonFile(join(dirname(dirname(file)), 'package.json'))
  if (folder === 'bin' && (manifest?.name === 'yarn' || manifest?.name === '@yarnpkg/cli-dist')) return familyOf(manifest.version)
  if (folder === 'dist' && manifest?.name === 'corepack' && /^yarn(pkg)?\.js$/.test(basename(file))) return corepackFamily(cwd)
  return undefined
}

/**
 * yarn 1 or berry, where the files say it for sure: what `yarn --version` would answer, without starting it. Undefined
 * where a yarnPath may hand over to another yarn, where a setting of yarn's or corepack's in the environment or on the
 * command line could change the answer, or where the executable is not one of the packages above.
 */
export function yarnFamilyFromFiles(executable: string, context: ToolContext): YarnFamily | undefined {
  const { env, args } = context
  if (Object.keys(env).some(name => /^(COREPACK_|YARN_(YARN_PATH|IGNORE_PATH|RC_FILENAME)$)/i.test(name))) return undefined
  // --cwd moves where yarn looks; --use-yarnrc and --no-default-rc change which rc files yarn 1 reads.
  if (args.some(arg => /^--(cwd|use-yarnrc|no-default-rc)(=|$)/.test(arg))) return undefined
  const configFolder = context.env.XDG_CONFIG_HOME ? join(context.env.XDG_CONFIG_HOME, 'yarn') : join(context.home, '.config', 'yarn')
  if ([configFolder, ...yarnrcFiles(context)].some(mayNameYarnPath)) return undefined
  return executableFamily(executable, context.cwd)
}
