import { readFileSync } from 'node:fs'
import { defineConfig } from 'tsup'

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }

// One bundle for the CLI: start-up cost is measured against `node -e 0` (npm run bench),
// so heavy modules are loaded with dynamic import() and land in their own chunks.
export default defineConfig({
  entry: { cli: 'src/cli/main.ts', index: 'src/index.ts', testing: 'src/testing/index.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  splitting: true,
  // Not cleaned: several test runs may build at once while developing; CI builds in a fresh clone.
  clean: false,
  sourcemap: false,
  dts: false,
  // Bundled: loading zod and execa as hundreds of small ESM files cost ~250 ms per start-up (measured), more than
  // pip's own run on a warm cache; proper-lockfile's dozen CommonJS files cost every network run ~10 ms more.
  // cosmiconfig stays external: it loads TypeScript lazily for .ts configs. write-file-atomic too: it reads
  // `__filename`, which an ES module bundle does not have.
  noExternal: ['zod', 'execa', 'commander', 'chalk', 'ci-info', 'env-paths', 'proper-lockfile'],
  // node-pty is native and optional: it must stay a runtime require, never bundled.
  external: ['node-pty'],
  // Bundled CommonJS (commander) calls require() for Node built-ins; ESM output has none unless we make one.
  banner: { js: "import { createRequire as __cjsRequire } from 'node:module'; const require = __cjsRequire(import.meta.url);" },
  define: { __VERSION__: JSON.stringify(version) },
})
