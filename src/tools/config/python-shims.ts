import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, delimiter, dirname, isAbsolute, join, resolve, sep } from 'node:path'

/** What a version manager's shim runs, read from its plain-text files the way it reads them, without starting it. */
export type ShimTarget = { executable: string } | { uncertain: string } | undefined

function readText(file: string): string | undefined {
  try {
    return statSync(file).size > 64 * 1024 ? undefined : readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
}

/** The nearest `name` from `start` up to the root, as pyenv's version-file and asdf's search do. */
function nearest(start: string, name: string): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    const file = join(dir, name)
    if (existsSync(file)) return file
    if (dirname(dir) === dir) return undefined
  }
}

/** `command` on PATH outside `without` (a shims folder), as `command -v` finds it. */
function onPath(command: string, env: NodeJS.ProcessEnv, without: string): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    if (resolve(dir) === resolve(without)) continue
    const file = join(dir, command)
    try {
      if (statSync(file).isFile()) return file
    } catch {
      // not here
    }
  }
  return undefined
}

/** pyenv's version-file-read: the first word of each line, comments and blank lines skipped, `..` and paths refused. */
function pyenvVersions(text: string): string[] | undefined {
  const versions: string[] = []
  for (const line of text.split(/\r?\n/)) {
    const word = line.trim().split(/\s+/)[0] ?? ''
    if (!word || word.startsWith('#')) continue
    if (word === '..' || word.includes('/')) return undefined
    versions.push(word)
  }
  return versions
}

/** Plugins' hooks that change which version pyenv picks (`version-name`) or which file it runs (`which`, `exec`). */
function pyenvHooksThatMatter(root: string, env: NodeJS.ProcessEnv): string | undefined {
  const dirs = [...(env.PYENV_HOOK_PATH ?? '').split(':').filter(Boolean), join(root, 'pyenv.d'), '/usr/etc/pyenv.d', '/usr/local/etc/pyenv.d', '/etc/pyenv.d',
    ...(() => { try { return readdirSync(join(root, 'plugins')).map(plugin => join(root, 'plugins', plugin, 'etc', 'pyenv.d')) } catch { return [] } })()]
  for (const dir of dirs) {
    try {
      // pyenv-virtualenv's `which` hooks act on a command a version lacks (and python-config): looked at apart.
      if (readdirSync(join(dir, 'version-name')).length) return join(dir, 'version-name')
    } catch {
      // no such hooks
    }
  }
  return undefined
}

/**
 * A pyenv shim (`<PYENV_ROOT>/shims/<command>`, `exec "<root>/libexec/pyenv" exec ...`): the version from PYENV_VERSION,
 * else the nearest `.python-version` from PYENV_DIR or the working directory, else `<root>/version`; each version
 * named in turn, the first that has the command: `<root>/versions/<version>/bin/<command>`, `system` the command on
 * PATH outside the shims (pyenv-version-name, pyenv-version-file, pyenv-which). A partial version (`3.11`, resolved
 * by pyenv-latest) or a plugin hook on version-name is not read: uncertain.
 */
function pyenvTarget(shim: string, text: string, env: NodeJS.ProcessEnv, cwd: string): ShimTarget {
  const root = /export PYENV_ROOT="([^"]+)"/.exec(text)?.[1] ?? env.PYENV_ROOT
  if (!root || !/libexec\/pyenv" exec /.test(text)) return undefined
  const command = basename(shim)
  const hook = pyenvHooksThatMatter(root, env)
  if (hook) return { uncertain: `pyenv has plugin hooks that choose its version (${hook})` }
  const fromFile = () => {
    const file = (env.PYENV_DIR && nearest(env.PYENV_DIR, '.python-version')) || nearest(cwd, '.python-version') || join(root, 'version')
    const text = readText(file)
    return text === undefined ? [] : pyenvVersions(text)
  }
  const versions = env.PYENV_VERSION ? env.PYENV_VERSION.split(':').filter(Boolean) : fromFile()
  if (!versions) return { uncertain: 'a pyenv version file names a path' }
  for (const version of versions.length ? versions : ['system']) {
    if (version === 'system') {
      const found = onPath(command, env, join(root, 'shims'))
      if (found) return { executable: found }
      continue
    }
    const dir = [version, version.replace(/^python-/, '')].map(name => join(root, 'versions', name)).find(candidate => existsSync(candidate))
    if (!dir) return { uncertain: `pyenv's version ${version} is not installed as such (pyenv would resolve it at run time)` }
    const file = join(dir, 'bin', command)
    if (existsSync(file)) return { executable: file }
  }
  return { uncertain: `no pyenv version of ${versions.join(':')} has ${command}` }
}

/**
 * An asdf shim (`<ASDF_DATA_DIR>/shims/<command>`, `asdf exec "<command>"`): the python version from
 * ASDF_PYTHON_VERSION, else the nearest `.tool-versions` from the working directory, else ~/.tool-versions (asdf's
 * version resolution); `<data>/installs/python/<version>/bin/<command>`. Anything else: uncertain.
 */
function asdfTarget(shim: string, text: string, env: NodeJS.ProcessEnv, cwd: string, home: string): ShimTarget {
  if (!/asdf exec /.test(text)) return undefined
  const command = basename(shim)
  const data = env.ASDF_DATA_DIR || dirname(dirname(shim))
  const fileName = env.ASDF_DEFAULT_TOOL_VERSIONS_FILENAME || '.tool-versions'
  const fromFile = () => {
    const file = nearest(cwd, fileName) ?? join(home, fileName)
    const line = readText(file)?.split(/\r?\n/).map(entry => entry.replace(/#.*$/, '').trim().split(/\s+/)).find(words => words[0] === 'python')
    return line?.slice(1)
  }
  const versions = env.ASDF_PYTHON_VERSION ? [env.ASDF_PYTHON_VERSION] : fromFile()
  if (!versions?.length) return { uncertain: 'asdf names no python version here' }
  for (const version of versions) {
    if (version === 'system' || version.includes(sep) || version === '..') return { uncertain: `asdf's python version ${version} is not read here` }
    const file = join(data, 'installs', 'python', version, 'bin', command)
    if (existsSync(file)) return { executable: file }
  }
  return { uncertain: `no asdf python version of ${versions.join(' ')} has ${command}` }
}

/**
 * The program a version manager's shim (pyenv, asdf) would run for `executable` in `cwd`, read from their version
 * files; undefined when `executable` is no such shim, `uncertain` where the files do not say for sure.
 */
export function resolvePythonShim(executable: string, env: NodeJS.ProcessEnv, cwd: string, home: string): ShimTarget {
  if (!isAbsolute(executable)) return undefined
  const text = readText(executable)
  if (!text?.startsWith('#!')) return undefined
  return pyenvTarget(executable, text, env, cwd) ?? asdfTarget(executable, text, env, cwd, home)
}
