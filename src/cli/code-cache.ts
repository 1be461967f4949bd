import { createHash } from 'node:crypto'
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import nodeModule from 'node:module'
import { homedir } from 'node:os'
import { basename, dirname, join, sep } from 'node:path'
import { Script } from 'node:vm'

// Compiling resilient's code is a third of what a healthy `pip install` through it costs (npm run bench): V8 can
// keep the compiled code between runs, and Node ≥ 22.1 does it for every module (module.enableCompileCache). Node 20
// does not, so there resilient does what that does, for its own files only: each is compiled with the code V8 made
// for the same text last time, and what a run compiled afresh is saved when it ends. Measured on the 2-core machine:
// the tool of a healthy `pip install` starts ~18 ms sooner.

/** How many files the cache keeps (each build of resilient adds a few); the oldest go first. */
const ENTRIES_KEPT = 48

interface NodeModuleInternals {
  enableCompileCache?: (dir?: string) => unknown
  wrap(source: string): string
  createRequire(filename: string): NodeJS.Require
  prototype: { _compile(this: CompilingModule, content: string, filename: string): unknown }
}

interface CompilingModule {
  exports: unknown
}

/**
 * Where the compiled code is kept: resilient's own cache folder, never the shared temporary one, or the folder
 * `NODE_COMPILE_CACHE` names, where Node ≥ 22.1 keeps its own.
 */
export function codeCacheDir(env: NodeJS.ProcessEnv, platform = process.platform): string | undefined {
  if (env.NODE_COMPILE_CACHE) return env.NODE_COMPILE_CACHE
  const caches = platform === 'win32' ? env.LOCALAPPDATA : env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache')
  return caches ? join(caches, 'resilient', 'v8-code-cache') : undefined
}

/**
 * Compiled code is code: it is read only from a directory that this user owns and nobody else can write to, as
 * resilient's state is. Creates it (0700) when missing; answers false when it cannot be trusted or made. Not
 * files/locked-file.ts's ensurePrivateDir, which uses a directory of someone else's as it finds it: this file imports
 * Node's modules only, since it runs before the cache is on and anything of resilient's it imported would bring the
 * tool run's whole chunk in, compiled without it.
 */
function privateDirectory(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const stat = lstatSync(dir)
    // Windows has no uid to compare: %LOCALAPPDATA% is the user's own by its access list.
    if (!stat.isDirectory() || (process.getuid && stat.uid !== process.getuid())) return false
    if ((stat.mode & 0o077) !== 0) chmodSync(dir, 0o700)
    return true
  } catch {
    return false
  }
}

/**
 * Compiles resilient's own files (those under `root`) with V8's code cache, on Node versions without
 * module.enableCompileCache; on the others, turns that on. `NODE_DISABLE_COMPILE_CACHE` turns both off and
 * `NODE_COMPILE_CACHE` chooses the folder, as they do for Node's own.
 */
export function useCodeCache(root: string, env: NodeJS.ProcessEnv = process.env): void {
  if (env.NODE_DISABLE_COMPILE_CACHE) return
  const Module = nodeModule as unknown as NodeModuleInternals
  const dir = codeCacheDir(env)
  if (!dir) return
  if (Module.enableCompileCache) {
    // With NODE_COMPILE_CACHE set, Node turned its cache on before any code ran.
    if (!env.NODE_COMPILE_CACHE) Module.enableCompileCache(join(dirname(dir), 'node-compile-cache'))
    return
  }
  const folder = join(dir, `${process.version}-${process.arch}`)
  if (!privateDirectory(folder)) return
  const unsaved: { file: string; script: Script }[] = []
  const compile = Module.prototype._compile
  const prefix = root.endsWith(sep) ? root : `${root}${sep}`
  Module.prototype._compile = function (this: CompilingModule, content: string, filename: string) {
    if (!filename.startsWith(prefix)) return compile.call(this, content, filename)
    // The name is the text's own hash: a cache entry can never be taken for another version of the file.
    const file = join(folder, `${createHash('sha1').update(content).digest('hex')}.bin`)
    let cachedData: Buffer | undefined
    try {
      cachedData = readFileSync(file)
    } catch {
      // not compiled before
    }
    // No import() here (Node 20 allows it only through an experimental option that warns): the build routes the
    // dynamic imports of these files through cli.ts's importModule.
    const script = new Script(Module.wrap(content), { filename, cachedData })
    if (!cachedData || script.cachedDataRejected) unsaved.push({ file, script })
    const wrapper = script.runInThisContext() as (...args: unknown[]) => unknown
    return wrapper.call(this.exports, this.exports, Module.createRequire(filename), this, filename, dirname(filename))
  }
  // At the end, so that the cache holds what this run compiled (V8 compiles a function when it first runs).
  process.once('exit', () => {
    if (unsaved.length) save(folder, unsaved)
  })
}

function save(folder: string, unsaved: { file: string; script: Script }[]): void {
  try {
    for (const { file, script } of unsaved) {
      const temporary = join(folder, `.${basename(file)}.${process.pid}`)
      writeFileSync(temporary, script.createCachedData(), { mode: 0o600 })
      renameSync(temporary, file)
    }
    const entries = readdirSync(folder).filter(name => name.endsWith('.bin')).map(name => join(folder, name))
    if (entries.length <= ENTRIES_KEPT) return
    const byAge = entries.map(path => ({ path, at: statSync(path).mtimeMs })).sort((a, b) => a.at - b.at)
    for (const { path } of byAge.slice(0, entries.length - ENTRIES_KEPT)) rmSync(path, { force: true })
  } catch {
    // A cache that cannot be written costs the next run its compile time, nothing more.
  }
}
