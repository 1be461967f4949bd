import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildTarball, startNpmRegistry, type Fault, type NpmRegistry } from './fake-npm-registry.js'
import { isolatedEnv } from './isolated-env.js'
import { projectWithConfig } from './e2e-setup.js'

/** Shared by the npm, pnpm, yarn and bun e2e tests: a primary registry with a fault, a healthy mirror, a project. */

const NODE_MODULES = fileURLToPath(new URL('../../node_modules/', import.meta.url))
/** Other majors of the tools than the devDependencies' (test/tools/package.json; `npm run test:tools` installs them). */
const OTHER_MAJORS = fileURLToPath(new URL('../tools/node_modules/', import.meta.url))

// Built once: the primary and the mirror serve byte-identical tarballs, as a real mirror does.
export const PACKAGES = [
  buildTarball({ name: 'left-pad-x', version: '1.0.0' }),
  buildTarball({ name: '@acme/util', version: '2.0.0', dependencies: { 'left-pad-x': '^1.0.0' } }),
]

export interface Setup {
  primary: NpmRegistry
  mirror: NpmRegistry
  /** A project folder with package.json and a `.resilientrc.json` naming the primary as the npm index. */
  project: string
  close(): Promise<void>
}

export async function primaryAndMirror(fault: Fault, files: Record<string, string> = {}): Promise<Setup> {
  const primary = await startNpmRegistry({ packages: PACKAGES, fault })
  const mirror = await startNpmRegistry({ packages: PACKAGES })
  const project = projectWithConfig({ npm: { index: primary.url, mirrors: [mirror.url] } })
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'e2e-project', version: '1.0.0', private: true }))
  for (const [name, content] of Object.entries(files)) writeFileSync(join(project, name), content)
  return { primary, mirror, project, close: async () => { await primary.close(); await mirror.close() } }
}

/** The real tools installed as devDependencies, each started by the name users type. */
const LAUNCHERS = {
  pnpm: join(NODE_MODULES, 'pnpm', 'bin', 'pnpm.cjs'),
  yarn1: join(NODE_MODULES, 'yarn', 'bin', 'yarn.js'),
  berry: join(NODE_MODULES, '@yarnpkg', 'cli-dist', 'bin', 'yarn.js'),
}

/**
 * bun's own binary. Its package's postinstall moves it over the placeholder bin/bun.exe; where install scripts did not
 * run (`npm ci --ignore-scripts`, npm 12's default without an allowScripts entry) the placeholder only prints an error,
 * and the binary is still in the platform package npm installed: @oven/bun-<os>-<arch>/bin/bun.
 */
function bunExecutable(): string {
  const placeholder = join(NODE_MODULES, 'bun', 'bin', 'bun.exe')
  const oven = join(NODE_MODULES, '@oven')
  const platform = existsSync(oven) ? readdirSync(oven).map(name => join(oven, name, 'bin', 'bun')) : []
  return [placeholder, ...platform].find(file => runs(file)) ?? placeholder
}

const runs = (file: string, major?: number) => {
  const version = spawnSync(file, ['--version'], { encoding: 'utf8', timeout: 60_000 })
  return version.status === 0 && (major === undefined || version.stdout.trim().startsWith(`${major}.`))
}

/**
 * pnpm 11 or 12's own binary, as users get it from its standalone installer or `npm install -g pnpm`: a native
 * executable, run without the Node.js of the tests. pnpm 11's JavaScript build needs Node.js 22.13 (node:sqlite) and
 * fails on Node.js 20, so test/tools takes its executable build (@pnpm/exe); pnpm 12 is native in its `pnpm` package.
 * Their install scripts put the binary over the package's placeholder; where they did not run, it is still in the
 * platform package npm installed (@pnpm/linux-x64 for 11, @pnpm/exe.linux-x64 for 12).
 */
export function pnpmExecutable(major: 11 | 12): string {
  const scoped = join(OTHER_MAJORS, '@pnpm')
  const platform = existsSync(scoped) ? readdirSync(scoped).map(name => join(scoped, name, 'pnpm')) : []
  const found = [join(OTHER_MAJORS, `pnpm${major}`, 'pnpm'), ...platform].find(file => existsSync(file) && runs(file, major))
  if (!found) throw new Error(`pnpm ${major} is not installed for the tests: run \`npm run test:tools\` (test/tools/package.json, docs/testing.md)`)
  return found
}

export type NpmFamilyTool = 'npm' | 'pnpm' | 'pnpm11' | 'pnpm12' | 'yarn1' | 'berry' | 'bun'

/** An isolated environment whose PATH starts with a folder holding `name` (yarn 1 and berry share the name). */
export function envWithTool(tool: NpmFamilyTool, extra: Record<string, string> = {}): Record<string, string> {
  const bin = mkdtempSync(join(tmpdir(), 'resilient-bin-'))
  if (tool === 'pnpm11' || tool === 'pnpm12') symlinkSync(pnpmExecutable(tool === 'pnpm11' ? 11 : 12), join(bin, 'pnpm'))
  else if (tool === 'bun') {
    // bunx is the same binary under another name (bun's own package links it so).
    for (const name of ['bun', 'bunx']) symlinkSync(bunExecutable(), join(bin, name))
  }
  else if (tool !== 'npm') {
    const name = tool === 'pnpm' ? 'pnpm' : 'yarn'
    writeFileSync(join(bin, name), `#!/bin/sh\nexec "${process.execPath}" "${LAUNCHERS[tool]}" "$@"\n`)
    chmodSync(join(bin, name), 0o755)
  }
  const env = isolatedEnv(extra)
  return { ...env, PATH: `${bin}${delimiter}${env.PATH}` }
}

/**
 * An isolated environment whose PATH starts with a folder holding `yarn` as `npm install -g` links it: a symbolic
 * link to the package's own bin/yarn.js, which resilient can tell yarn 1 from berry by (src/tools/yarn-variant.ts).
 */
export function envWithLinkedYarn(tool: 'yarn1' | 'berry', extra: Record<string, string> = {}): Record<string, string> {
  const bin = mkdtempSync(join(tmpdir(), 'resilient-bin-'))
  symlinkSync(LAUNCHERS[tool], join(bin, 'yarn'))
  const env = isolatedEnv(extra)
  return { ...env, PATH: `${bin}${delimiter}${env.PATH}` }
}

export function installed(project: string, name: string): boolean {
  return existsSync(join(project, 'node_modules', name, 'package.json'))
}

/** Whether a registry was asked for the package's packument or tarball. */
export function served(registry: NpmRegistry, name: string): boolean {
  return registry.requests.some(path => path === `/${name}` || path.startsWith(`/${name}/-/`))
}
