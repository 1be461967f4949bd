import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { installedPackage } from './node-project.js'
import { packageOfSpecifier } from './node-specifier.js'
import type { ScannedImport } from './scan-python.js'

// Every package the script imports unconditionally that Node would not find, read from the source text (a
// JavaScript parser would refuse TypeScript, which tsx runs). Unconditional means: an ESM static `import`/`export
// ... from` (always top level), or a `require()` in a statement that starts at column 0 (top level in any
// formatted file; a require inside a function, a `try` or an `if` is indented, so optional by construction). The
// project's own files reached by relative imports are read too. At most 200 files.

const ESM = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm
const REQUIRE = /^(?:(?:const|let|var)\s+[^=;]+=\s*)?require\(\s*['"]([^'"]+)['"]\s*\)/gm
const EXTENSIONS = ['', '.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.jsx', '.tsx', '/index.js', '/index.mjs', '/index.ts']

function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, match => match.replace(/[^\n]/g, ' ')).replace(/^\s*\/\/.*$/gm, '')
}

function localFile(specifier: string, fromDir: string): string | undefined {
  const base = resolve(fromDir, specifier)
  for (const extension of EXTENSIONS) {
    const candidate = base + extension
    try {
      if (statSync(candidate).isFile()) return realpathSync(candidate)
    } catch {
      // not this one
    }
  }
  return undefined
}

function lineOf(source: string, index: number): string {
  return source.slice(source.lastIndexOf('\n', index) + 1, (source.indexOf('\n', index) + 1 || source.length + 1) - 1).trim()
}

/** The packages `files` import unconditionally that are not installed where Node looks from each file. */
export function scanNodeImports(files: string[]): ScannedImport[] {
  const queue = files.filter(file => existsSync(file)).map(file => realpathSync(file))
  const seen = new Set<string>()
  const named = new Set<string>()
  const result: ScannedImport[] = []
  while (queue.length && seen.size < 200) {
    const file = queue.shift()!
    if (seen.has(file)) continue
    seen.add(file)
    let source: string
    try {
      source = withoutComments(readFileSync(file, 'utf8'))
    } catch {
      continue
    }
    const fromDir = dirname(file)
    for (const match of [...source.matchAll(ESM), ...source.matchAll(REQUIRE)].sort((a, b) => a.index - b.index)) {
      const specifier = match[1]!
      if (/^\.{1,2}(\/|$)/.test(specifier)) {
        const local = localFile(specifier, fromDir)
        if (local) queue.push(local)
        continue
      }
      const owner = packageOfSpecifier(specifier)
      if ('refused' in owner || named.has(owner.package) || installedPackage(owner.package, fromDir)) continue
      named.add(owner.package)
      result.push({ name: owner.package, file, line: lineOf(source, match.index) })
    }
  }
  return result
}
