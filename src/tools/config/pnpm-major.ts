// Which pnpm major runs here, where files say it for sure: pnpm 11 changed where its settings come from (it reads no
// npm_config_* variable but npm_config_userconfig and the URL-scoped `npm_config_//host/:key`, and from .npmrc only
// registry, auth, certificate and proxy keys), so what resilient reads on pnpm's behalf depends on it.
import { realpathSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { readJsonFile } from './json-file.js'
import { upwards } from '../../files/upwards.js'

// npm's `pnpm` (bin/pnpm.cjs up to 10, a native `pnpm` from 12), the executable build @pnpm/exe and the platform
// packages both install (@pnpm/linux-x64, @pnpm/exe.linux-x64, @pnpm/macos-arm64, ...).
const PACKAGE = /^(pnpm|@pnpm\/exe|@pnpm\/(exe\.)?[a-z]+-[a-z0-9]+(-musl)?)$/
const PROGRAM = /^(pnpm|pnpx|pn|pnx)(\.cjs|\.mjs|\.exe)?$/

const majorOf = (version: unknown) => typeof version === 'string' && /^\d+\.\d+\.\d+/.test(version) ? Number(version.split('.')[0]) : undefined

/** The major of the pnpm package `executable` is a program of: at the package's root or in its bin folder. */
function packageMajor(executable: string): number | undefined {
  let file: string
  try {
    file = realpathSync(executable)
  } catch {
    return undefined
  }
  if (!PROGRAM.test(basename(file))) return undefined
  const roots = [dirname(file), ...(basename(dirname(file)) === 'bin' ? [dirname(dirname(file))] : [])]
  for (const root of roots) {
    const manifest = readJsonFile(join(root, 'package.json'))
    if (manifest && typeof manifest.name === 'string' && PACKAGE.test(manifest.name)) return majorOf(manifest.version)
  }
  return undefined
}

/**
 * Whether a package.json from `dir` up may make pnpm run another version of itself: pnpm (9.7+, its
 * manage-package-manager-versions) switches to the version a `packageManager` of pnpm's names, and devEngines can
 * name one too. A `packageManager` of the same major changes nothing.
 */
function projectMayPickAnother(dir: string, major: number): boolean {
  for (const folder of upwards(dir)) {
    const manifest = readJsonFile(join(folder, 'package.json'))
    if (manifest?.devEngines !== undefined) return true
    const spec = manifest?.packageManager
    if (typeof spec === 'string' && spec.startsWith('pnpm@') && majorOf(spec.slice(5)) !== major) return true
  }
  return false
}

/**
 * pnpm's major for this invocation, from the package its executable belongs to, unless the project may pick another
 * pnpm; undefined where that cannot be told without starting it (a version manager's shim, corepack, the standalone
 * installer's copy), and resilient then reads settings as either major would.
 */
export function pnpmMajor(executable: string | undefined, projectDir: string): number | undefined {
  const major = executable ? packageMajor(executable) : undefined
  return major === undefined || projectMayPickAnother(projectDir, major) ? undefined : major
}

// pnpm 11's @pnpm/config isNpmrcReadableKey (config/reader/src/localConfig.ts): what it still reads from .npmrc.
const NPMRC_READABLE = new Set(['ca', 'cafile', 'cert', 'key', 'registry', '_auth', '_authToken', '_password', 'email', 'keyfile', 'username',
  'https-proxy', 'proxy', 'no-proxy', 'http-proxy', 'local-address', 'strict-ssl'])

/** Whether pnpm reads `key` from its npmrc files: every key up to 10, registry, auth, certificates and proxies from 11. */
export function pnpmReadsFromNpmrc(key: string, major: number | undefined): boolean {
  return major === undefined || major < 11 || key.startsWith('@') || key.startsWith('//') || NPMRC_READABLE.has(key)
}

/** Whether pnpm reads npm_config_<key> (and not only pnpm_config_<key>): up to 10, or when its major is not known. */
export const pnpmReadsNpmConfig = (major: number | undefined) => major === undefined || major < 11
