import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { findOptions, type OptionSpec } from '../tools/argv/args.js'
import { readTomlFile, stringAt, tablesAt } from '../tools/config/project-files.js'
import { PIP_BESIDE_FLAGS, PIP_INDEX_FLAGS } from '../tools/argv/python-index-flags.js'

/**
 * Where a project says its Python packages come from, as the variables pip reads (PIP_INDEX_URL, PIP_EXTRA_INDEX_URL,
 * PIP_NO_INDEX, PIP_FIND_LINKS): never on the install's command line, since a URL may carry a token. `resilient run`
 * installs from there, never from a public index when the project names its own.
 */
export interface DeclaredSource {
  env: Record<string, string>
  /** `requirements.txt:1`, `pyproject.toml [[tool.uv.index]]`. */
  origin: string
}

const { extraIndex: EXTRA, findLinks: FIND_LINKS } = PIP_BESIDE_FLAGS

function asSource(index: string | undefined, extras: string[], origin: string, more: Record<string, string> = {}): DeclaredSource | undefined {
  if (!index && !extras.length && !Object.keys(more).length) return undefined
  return { env: { ...(index && { PIP_INDEX_URL: index }), ...(extras.length ? { PIP_EXTRA_INDEX_URL: extras.join(' ') } : {}), ...more }, origin }
}

/** The requirement files the project's declarations come from (declared-python.ts), their option lines read as pip does. */
function fromRequirementFiles(root: string): DeclaredSource | undefined {
  const list = (dir: string) => { try { return readdirSync(dir).sort() } catch { return [] } }
  const files = [...list(root).filter(name => /^requirements.*\.(txt|in)$/.test(name)).map(name => join(root, name)),
    ...list(join(root, 'requirements')).filter(name => /\.(txt|in)$/.test(name)).map(name => join(root, 'requirements', name))]
  let index: string | undefined
  const extras: string[] = []
  const links: string[] = []
  const origins = new Set<string>()
  let noIndex = false
  for (const file of files) {
    let text: string
    try { text = readFileSync(file, 'utf8') } catch { continue }
    text.split(/\r?\n/).forEach((line, number) => {
      const words = line.replace(/(^|\s)#.*$/, '').trim().split(/\s+/)
      if (!words[0]?.startsWith('-')) return
      const origin = `${file.slice(root.length + 1)}:${number + 1}`
      const value = (spec: OptionSpec) => findOptions(words, spec).flatMap(found => found.value ? [found.value] : [])
      const found = { index: value(PIP_INDEX_FLAGS.index).at(-1), extras: value(EXTRA), links: value(FIND_LINKS), none: findOptions(words, PIP_INDEX_FLAGS.noIndex).length > 0 }
      if (!found.index && !found.extras.length && !found.links.length && !found.none) return
      origins.add(origin)
      index = found.index ?? index
      extras.push(...found.extras)
      // pip reads a relative find-links path from the requirement file's folder when it exists there.
      links.push(...found.links.map(link => existsSync(resolve(dirname(file), link)) ? resolve(dirname(file), link) : link))
      noIndex ||= found.none
    })
  }
  const more = { ...(noIndex ? { PIP_NO_INDEX: '1' } : {}), ...(links.length ? { PIP_FIND_LINKS: links.join(' ') } : {}) }
  return asSource(index, extras, [...origins].join(', '), more)
}

/**
 * pyproject.toml, in each tool's own terms. uv: `[[tool.uv.index]]` (not `explicit`) are asked before PyPI and the
 * one marked `default` replaces it, so with any declared, PyPI is not used. PDM: a `[[tool.pdm.source]]` named `pypi`
 * replaces PyPI, the others come beside it. Poetry: primary sources (no priority given) replace PyPI, supplemental
 * ones come beside; explicit ones serve only the packages that name them.
 */
function fromPyproject(root: string): DeclaredSource | undefined {
  const file = join(root, 'pyproject.toml')
  const toml = readTomlFile(file)
  if (!toml) return undefined
  const urls = (tables: Record<string, unknown>[]) => tables.flatMap(table => typeof table.url === 'string' ? [table.url] : [])
  const uv = tablesAt(toml, 'tool', 'uv', 'index').filter(table => table.explicit !== true)
  const uvLegacy = stringAt(toml, 'tool', 'uv', 'index-url')
  if (uv.length || uvLegacy) {
    const [first, ...rest] = urls([...uv.filter(table => table.default === true), ...uv.filter(table => table.default !== true)])
    return asSource(first ?? uvLegacy, first && uvLegacy ? [...rest, uvLegacy] : rest, 'pyproject.toml [[tool.uv.index]]')
  }
  const pdm = tablesAt(toml, 'tool', 'pdm', 'source')
  if (pdm.length) {
    const links = urls(pdm.filter(table => table.type === 'find_links'))
    const indexes = pdm.filter(table => table.type !== 'find_links')
    return asSource(urls(indexes.filter(table => table.name === 'pypi'))[0], urls(indexes.filter(table => table.name !== 'pypi')), 'pyproject.toml [[tool.pdm.source]]', links.length ? { PIP_FIND_LINKS: links.join(' ') } : {})
  }
  const poetry = tablesAt(toml, 'tool', 'poetry', 'source').filter(table => table.priority !== 'explicit')
  const primary = urls(poetry.filter(table => table.priority === undefined || table.priority === 'primary' || table.priority === 'default' || table.default === true))
  const supplemental = urls(poetry.filter(table => table.priority === 'supplemental' || table.priority === 'secondary'))
  return asSource(primary[0], [...primary.slice(1), ...supplemental], 'pyproject.toml [[tool.poetry.source]]')
}

/** The project's own declaration, requirement files first (pip's own format), then pyproject.toml. */
export function declaredPythonSource(root: string): DeclaredSource | undefined {
  return fromRequirementFiles(root) ?? fromPyproject(root)
}
