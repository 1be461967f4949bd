// The build: dist/cli.js (the bin entry), dist/index.js (the programmatic API), dist/testing.js (local index servers
// for tests and `npm run bench`), and the chunks they load.
//
// Why rollup and not esbuild (tsup): start-up is measured against `node -e 0` (npm run bench), and Node 20 pays about
// 0.4 ms per ES module file it loads (resolve, read, link), whatever its size. esbuild's code splitting puts the code
// of a `resilient pip install` in some thirty chunks, one per combination of lazily loaded entries sharing it, and
// offers no way to group them; rollup's manualChunks does: everything a tool run needs before and after the tool is
// one chunk (measured: its load went from 40 to 29 ms on the 2-core machine). Everything else (subcommands,
// diagnosis, prompts, spinners) stays in chunks of its own, loaded when used.
import { readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { resolve } from 'node:path'
import commonjs from '@rollup/plugin-commonjs'
import json from '@rollup/plugin-json'
import nodeResolve from '@rollup/plugin-node-resolve'
import esbuild from 'rollup-plugin-esbuild'

const { version, dependencies, optionalDependencies } = JSON.parse(readFileSync('package.json', 'utf8'))

// Bundled: loading zod, execa or commander as hundreds of small module files costs far more than one chunk, and
// proper-lockfile is a dozen CommonJS files. The other dependencies load from node_modules when used: cosmiconfig
// loads TypeScript lazily for .ts configs, write-file-atomic reads `__filename`, node-pty is native and optional.
const BUNDLED = ['zod', 'execa', 'commander', 'chalk', 'ci-info', 'env-paths', 'proper-lockfile']
const EXTERNAL = [...Object.keys(dependencies), ...Object.keys(optionalDependencies ?? {})].filter(name => !BUNDLED.includes(name))
const isExternal = id => id.startsWith('node:') || builtinModules.includes(id) || EXTERNAL.some(name => id === name || id.startsWith(`${name}/`))

// What `resilient <tool> ...` and `resilient shim run <tool> ...` load: the modules these reach by static imports.
// The bin entry's own static imports stay out, so that `resilient --version` loads nothing more (figure c).
const TOOL_RUN = ['src/cli/run-cli.ts', 'src/cli/commands/run-tool.ts', 'src/cli/commands/shim-run.ts']
const ENTRY = 'src/cli/main.ts'

function staticClosure(roots, moduleInfo) {
  const seen = new Set()
  const queue = roots.map(root => resolve(root))
  while (queue.length) {
    const id = queue.pop()
    if (seen.has(id)) continue
    const info = moduleInfo(id)
    if (!info || info.isExternal) continue
    seen.add(id)
    queue.push(...info.importedIds)
  }
  return seen
}

let chunks
/**
 * Puts the modules of a tool run into one chunk, `tool-run`, and what the bin entry itself needs into another,
 * `start` (rollup would otherwise pull them into `tool-run`, a manual chunk taking its unassigned dependencies along).
 * Rollup places the rest.
 */
function manualChunks(id, { getModuleInfo }) {
  if (!chunks) {
    const start = staticClosure([ENTRY], getModuleInfo)
    start.delete(resolve(ENTRY))
    chunks = { start, toolRun: staticClosure(TOOL_RUN, getModuleInfo) }
  }
  if (chunks.start.has(id)) return 'start'
  if (chunks.toolRun.has(id)) return 'tool-run'
  return undefined
}

export default {
  input: { cli: ENTRY, index: 'src/index.ts', testing: 'src/testing/index.ts' },
  output: { dir: 'dist', format: 'es', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js', manualChunks },
  external: isExternal,
  plugins: [
    nodeResolve({ preferBuiltins: true, exportConditions: ['node'] }),
    json(),
    commonjs(),
    esbuild({ target: 'node20', define: { __VERSION__: JSON.stringify(version) } }),
  ],
  // A dependency's own cycles (zod, undici) and its comments rollup cannot place are its business, not the build's.
  onwarn(warning, warn) {
    if (warning.code === 'CIRCULAR_DEPENDENCY' || warning.code === 'INVALID_ANNOTATION') return
    warn(warning)
  },
}
