import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'

/**
 * Where a project keeps resilient's settings: names that are resilient's own, so another project's
 * `"mirror"` key or `.mirrorrc` is never read. JSON and YAML are data; the other forms are code, run only once trusted.
 */
const DATA_NAMES = ['.resilientrc', '.resilientrc.json', '.resilientrc.yaml', '.resilientrc.yml',
  '.config/resilientrc', '.config/resilientrc.json', '.config/resilientrc.yaml', '.config/resilientrc.yml']
const CODE_NAMES = [...['js', 'ts', 'mjs', 'cjs'].flatMap(ext => [`.resilientrc.${ext}`, `.config/resilientrc.${ext}`]),
  ...['js', 'ts', 'mjs', 'cjs'].map(ext => `resilient.config.${ext}`)]
export const PROJECT_CONFIG_NAMES = [...DATA_NAMES, ...CODE_NAMES]
/** The package.json key. */
export const PACKAGE_KEY = 'resilient'

export interface ProjectFile {
  path: string
  /** The file's bytes, as hashed for trust. */
  content: string
  /** `.js/.ts/.mjs/.cjs`: executed when loaded. */
  isCode: boolean
  /** package.json: the settings are its `"resilient"` value. */
  packageValue?: unknown
}

export function isCodeConfig(path: string): boolean {
  return /\.(?:[cm]?js|ts)$/.test(path)
}

/** A package.json whose `"resilient"` value is an object of settings; another shape belongs to someone else. */
function packageJsonIn(dir: string, note: (message: string) => void): ProjectFile | undefined {
  let path: string
  let content: string
  try {
    path = realpathSync(join(dir, 'package.json'))
    content = readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
  if (!content.includes(`"${PACKAGE_KEY}"`)) return undefined
  let value: unknown
  try {
    value = (JSON.parse(content) as Record<string, unknown>)[PACKAGE_KEY]
  } catch {
    return undefined
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) return { path, content, isCode: false, packageValue: value }
  note(`${path}: its "${PACKAGE_KEY}" value is not an object of settings, so it is not resilient's and was ignored`)
  return undefined
}

/**
 * The nearest project config from cwd upwards. The walk stops at a repository root (.git), at the home directory,
 * and before any world-writable directory such as /tmp, whose files anyone could plant.
 */
export function findProjectFile(cwd: string, home: string, note: (message: string) => void): ProjectFile | undefined {
  for (let dir = cwd; ; dir = dirname(dir)) {
    try {
      if ((statSync(dir).mode & 0o002) !== 0) return undefined
    } catch {
      return undefined
    }
    const packageFile = packageJsonIn(dir, note)
    if (packageFile) return packageFile
    const found = PROJECT_CONFIG_NAMES.map(name => join(dir, name)).find(candidate => existsSync(candidate))
    // Trust is recorded by real path: a symlinked checkout is the same file.
    const path = found && realpathSync(found)
    if (path) return { path, content: readFileSync(path, 'utf8'), isCode: isCodeConfig(path) }
    if (dir === home || existsSync(join(dir, '.git')) || dirname(dir) === dir) return undefined
  }
}
