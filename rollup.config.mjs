// Three builds: the command (dist/cli.cjs, the bin entry, and the chunks it loads), the programmatic API
// (dist/index.js), and, outside the package, the local index servers and measures `npm run bench` uses
// (build/bench/testing.js).
//
// The command is CommonJS: Node 20 can keep V8's compiled code between runs only for scripts it compiles itself
// (src/cli/code-cache.ts); ES modules it compiles on every start.
//
// Why rollup and not esbuild (tsup): start-up is measured against `node -e 0` (npm run bench), and Node 20 pays about
// 0.4 ms per ES module file it loads (resolve, read, link), whatever its size. esbuild's code splitting puts the code
// of a `resilient pip install` in some thirty chunks, one per combination of lazily loaded entries sharing it, and
// offers no way to group them; rollup's manualChunks does: everything a tool run needs before and after the tool is
// one chunk (measured: its load went from 40 to 29 ms on the 2-core machine). Everything else (subcommands,
// diagnosis, prompts, spinners) stays in chunks of its own, loaded when used.
import { existsSync, readFileSync } from 'node:fs'
import { builtinModules, createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
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
// Main's own static imports stay out, so that `resilient --version` loads nothing more (figure c).
const TOOL_RUN = ['src/cli/run-cli.ts', 'src/cli/commands/tool-command.ts', 'src/cli/commands/shim-run.ts']
const MAIN = 'src/cli/main.ts'

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
 * Puts the modules of a tool run into one chunk, `tool-run`, and what main itself needs (enough to answer
 * `--version`) into another, `start` (rollup would otherwise pull them into `tool-run`, a manual chunk taking its
 * unassigned dependencies along). Rollup places the rest. The bin entry, cli.ts, imports Node's modules only.
 */
function manualChunks(id, { getModuleInfo }) {
  if (!chunks) {
    const start = staticClosure([MAIN], getModuleInfo)
    start.delete(resolve(MAIN))
    chunks = { start, toolRun: staticClosure(TOOL_RUN, getModuleInfo) }
  }
  if (chunks.start.has(id)) return 'start'
  if (chunks.toolRun.has(id)) return 'tool-run'
  return undefined
}

const requireFrom = createRequire(import.meta.url)

/**
 * Whether Node loads `id` (a builtin or an external package) as CommonJS: its entry for require() is a .cjs file, or a
 * .js file in a package that is not `"type": "module"`. Such a dependency is loaded with require(): import() of it
 * would start Node's ES module loader and parse the file's text once more for its export names (cjs-module-lexer),
 * about 10 ms of CPU in a run that needs neither, after the tool has exited (write-file-atomic, for mirror health).
 */
function loadsAsCommonJs(id) {
  if (id.startsWith('node:') || builtinModules.includes(id)) return true
  let entry
  try {
    entry = requireFrom.resolve(id)
  } catch {
    return false
  }
  if (entry.endsWith('.cjs')) return true
  if (!entry.endsWith('.js')) return false
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).type !== 'module'
  }
  return true
}

/**
 * In the command's CommonJS files, `import('ora')` and the like become `require('./cli.cjs').importModule('ora')`:
 * those files are compiled with a code cache (src/cli/code-cache.ts), where Node 20 has no import() without an
 * experimental option that prints a warning. Imports of resilient's own chunks are require() calls already, and so
 * are those of builtins and CommonJS dependencies (output.dynamicImportInCjs: false, with rollup's interop giving
 * what import() would: the exports as `default`, and their names). cli.ts's own import() stays one.
 */
const importThroughEntry = {
  name: 'import-through-entry',
  renderDynamicImport({ format, moduleId, targetModuleId }) {
    if (format !== 'cjs') return null
    if (moduleId === resolve('src/cli/cli.ts')) return { left: 'import(', right: ')' }
    if (targetModuleId && (!isExternal(targetModuleId) || loadsAsCommonJs(targetModuleId))) return null
    return { left: "require('./cli.cjs').importModule(", right: ')' }
  },
}

/** Whether a tagged template anywhere below `node` holds a character outside ASCII in its raw text. */
function rawTextOutsideAscii(node) {
  if (!node || typeof node.type !== 'string') return false
  if (node.type === 'TaggedTemplateExpression' && node.quasi.quasis.some(quasi => /[^\x00-\x7f]/.test(quasi.value.raw))) return true
  return Object.values(node).some(value => Array.isArray(value) ? value.some(rawTextOutsideAscii) : typeof value === 'object' && rawTextOutsideAscii(value))
}

/**
 * The command's chunks in ASCII, every other character written as a \u escape (the same string, regular expression or
 * name; a comment's text): Node reads a file holding a single non-ASCII byte as a two-byte string, twice the memory and
 * a slower read, hash and parse. The tool run's chunk (570 kB) had 14 such characters, all in comments; reading and
 * hashing it as code-cache.ts does took 17.6 ms in a fresh process against 11.0 ms once ASCII (median of 15, the
 * 2-core machine at a load of 0.9). Where an escape would change what the code sees (a tagged template's raw text,
 * String.raw), a character outside the BMP, or a line separator (a line break in a comment), the build stops instead.
 */
const asciiOnly = {
  name: 'ascii-only',
  renderChunk(code, chunk) {
    if (!/[^\x00-\x7f]/.test(code)) return null
    if (/[\u2028\u2029\ud800-\udfff]/.test(code) || rawTextOutsideAscii(this.parse(code))) {
      throw new Error(`${chunk.fileName}: a character outside ASCII that a \\u escape would change; write it as an escape in the source`)
    }
    return { code: code.replace(/[^\x00-\x7f]/g, character => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`), map: null }
  },
}

const plugins = () => [
  nodeResolve({ preferBuiltins: true, exportConditions: ['node'] }),
  json(),
  commonjs(),
  esbuild({ target: 'node20', define: { __VERSION__: JSON.stringify(version) } }),
]

// A dependency's own cycles (zod, undici) and its comments rollup cannot place are its business, not the build's.
function onwarn(warning, warn) {
  if (warning.code === 'CIRCULAR_DEPENDENCY' || warning.code === 'INVALID_ANNOTATION') return
  warn(warning)
}

export default [
  {
    // cli.cjs turns the code cache on, then loads main.cjs, which the cache then covers.
    input: { cli: 'src/cli/cli.ts', main: MAIN },
    output: { dir: 'dist', format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: '[name]-[hash].cjs', manualChunks, dynamicImportInCjs: false },
    external: isExternal,
    plugins: [...plugins(), importThroughEntry, asciiOnly],
    onwarn,
  },
  {
    input: { index: 'src/index.ts' },
    output: { dir: 'dist', format: 'es', entryFileNames: '[name].js', chunkFileNames: 'api-[name]-[hash].js' },
    external: isExternal,
    plugins: plugins(),
    onwarn,
  },
  // The test servers, the diagnosis measures and the differential matrix for `npm run bench`: test code, built
  // beside the package (build/bench/), never shipped in it.
  {
    input: { testing: 'test/support/index.ts' },
    output: { dir: 'build/bench', format: 'es', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
    external: isExternal,
    plugins: plugins(),
    onwarn,
  },
]
