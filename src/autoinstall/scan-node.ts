import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { installedPackage } from './node-project.js'
import { packageOfSpecifier } from './node-specifier.js'
import { findUnconditionalImports, type FoundImport } from './node-imports.js'
import type { ScannedImport } from './scan-python.js'

// Every package the script imports unconditionally that Node would not find, read by a JavaScript parser (Babel's,
// with TypeScript and JSX, which tsx and ts-node scripts use): static imports, `export ... from`, and `require()`
// and `import()` of a string that run at load (src/autoinstall/node-imports.ts). The project's own files reached by
// relative imports are read too. At most 200 files. The parser is loaded only here, when a script failed on a module.

const EXTENSIONS = ['', '.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.jsx', '.tsx', '/index.js', '/index.mjs', '/index.ts']

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

/** The source line of an import, as evidence; in a minified file, the part of its one long line around it. */
function lineOf(lines: readonly string[], { line, column }: FoundImport): string {
  const text = lines[line - 1] ?? ''
  if (text.length <= 160) return text.trim()
  const from = Math.max(0, column - 40)
  return `${from ? '…' : ''}${text.slice(from, from + 120).trim()}${from + 120 < text.length ? '…' : ''}`
}

/** The packages `files` import unconditionally that are not installed where Node looks from each file. */
export async function scanNodeImports(files: string[]): Promise<ScannedImport[]> {
  const { parse } = await import('@babel/parser')
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
      source = readFileSync(file, 'utf8')
    } catch {
      continue
    }
    const fromDir = dirname(file)
    const lines = source.split('\n')
    for (const found of findUnconditionalImports(parse, source, file) ?? []) {
      const specifier = found.specifier
      if (/^\.{1,2}(\/|$)/.test(specifier)) {
        const local = localFile(specifier, fromDir)
        if (local) queue.push(local)
        continue
      }
      const owner = packageOfSpecifier(specifier)
      if ('refused' in owner || named.has(owner.package) || installedPackage(owner.package, fromDir)) continue
      named.add(owner.package)
      result.push({ name: owner.package, file, line: lineOf(lines, found) })
    }
  }
  return result
}
