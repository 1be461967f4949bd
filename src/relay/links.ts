/**
 * Where a file link of an index page lives on every source: its path under a source's file root. PyPI mirrors keep
 * `packages/<hash path>/<file>` under their root as files.pythonhosted.org does; npm registries keep
 * `<name>/-/<file>.tgz`. That shared path is the file's address on the relay.
 */

/** A URL as the WHATWG parser writes it (host in lower case, default port dropped), or undefined. */
function normalized(url: string): string | undefined {
  try {
    return new URL(url).href
  } catch {
    return undefined
  }
}

/** The file roots of the sources, normalized, longest first (a root inside another wins). */
export function fileRoots(roots: readonly string[]): string[] {
  return [...new Set(roots.map(root => normalized(root.endsWith('/') ? root : `${root}/`)).filter((root): root is string => Boolean(root)))]
    .sort((a, b) => b.length - a.length)
}

/** The relay path of an absolute file URL (fragment excluded) under one of `roots`, or undefined. */
export function relayPathOf(url: string, roots: readonly string[]): string | undefined {
  const absolute = normalized(url)
  if (!absolute) return undefined
  const root = roots.find(candidate => absolute.startsWith(candidate))
  const rest = root && absolute.slice(root.length)
  return rest && isSafePath(rest) ? rest : undefined
}

/**
 * A path the relay may append to a source's root: no dot segments, backslashes or control characters, so that
 * `root + path` stays under the root it names.
 */
export function isSafePath(path: string): boolean {
  if (!path || path.startsWith('/') || /[\\\x00-\x20\x7f]/.test(path)) return false
  return path.split(/[?#]/)[0]!.split('/').every(segment => !/^(?:\.|%2e){1,2}$/i.test(segment))
}
