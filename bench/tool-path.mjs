// The npm family's tools as their devDependencies provide them, each under the name people type, first on PATH: for
// the bench's figures that run them (bench/registry.mjs, bench/matrix.mjs), as test/helpers/npm-registries.ts does for the tests.
import { existsSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const NODE_MODULES = fileURLToPath(new URL('../node_modules/', import.meta.url))

/** bun's own binary: the package's placeholder once its postinstall ran, else the platform package's (as the tests find it). */
export function bunExecutable() {
  const oven = join(NODE_MODULES, '@oven')
  const platform = existsSync(oven) ? readdirSync(oven).map(name => join(oven, name, 'bin', 'bun')) : []
  return [join(NODE_MODULES, 'bun', 'bin', 'bun.exe'), ...platform].find(file => spawnSync(file, ['--version'], { stdio: 'ignore' }).status === 0)
}

/** The tools' Node scripts (yarn 1 and berry share the name `yarn`). */
export const SCRIPTS = {
  pnpm: join(NODE_MODULES, 'pnpm', 'bin', 'pnpm.cjs'),
  yarn1: join(NODE_MODULES, 'yarn', 'bin', 'yarn.js'),
  berry: join(NODE_MODULES, '@yarnpkg', 'cli-dist', 'bin', 'yarn.js'),
}

/**
 * A new folder holding `name`: a link to `binary` or `script`, as npm links a package's bin (node_modules/.bin, `npm
 * install -g`), so that resilient sees the tool as a person who installed it so has it (yarn 1 or berry is then read
 * from the package, src/tools/yarn-variant.ts). A script runs with the `node` on PATH, as its `#!/usr/bin/env node` says.
 */
export function toolPath({ name, script, binary }) {
  const bin = mkdtempSync(join(tmpdir(), 'bench-tools-'))
  symlinkSync(binary ?? script, join(bin, name))
  return bin
}
