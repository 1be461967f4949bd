// The bin entry (dist/cli.cjs): resilient's own files are compiled with V8's code cache (code-cache.ts), then main
// starts. A CommonJS build: Node 20 can keep compiled code between runs only for scripts it compiles itself.
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { useCodeCache } from './code-cache.js'

/**
 * import() on behalf of the files compiled with the code cache (the build routes their dynamic imports of
 * dependencies here, rollup.config.mjs): on Node 20 such a script can only import through an experimental option,
 * which prints a warning on stderr. This file is compiled by Node itself.
 */
export function importModule(specifier: string): Promise<unknown> {
  return import(specifier)
}

const entry = fileURLToPath(import.meta.url)
useCodeCache(dirname(entry))
createRequire(entry)('./main.cjs')
