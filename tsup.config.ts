import { readFileSync } from 'node:fs'
import { defineConfig } from 'tsup'

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }

// One bundle for the CLI: start-up cost is measured against `node -e 0` (npm run bench),
// so heavy modules are loaded with dynamic import() and land in their own chunks.
export default defineConfig({
  entry: { cli: 'src/cli/main.ts', index: 'src/index.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  splitting: true,
  // Not cleaned: several test runs may build at once while developing; CI builds in a fresh clone.
  clean: false,
  sourcemap: false,
  dts: false,
  // node-pty is native and optional: it must stay a runtime require, never bundled.
  external: ['node-pty'],
  define: { __VERSION__: JSON.stringify(version) },
})
