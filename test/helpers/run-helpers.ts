import { createHash } from 'node:crypto'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { execa } from 'execa'
import { strToU8, zipSync } from 'fflate'
import type { BuiltWheel, PypiServer } from './fake-pypi.js'
import { isolatedEnv } from './isolated-env.js'
import { runCli } from './run-cli.js'
import { relayOffUnlessSaid } from './e2e-setup.js'

// Shared by the `resilient run` e2e tests: real venvs, project directories, and the built CLI.

/**
 * A real venv with pip (`python3 -m venv`), made once per test file: ensurepip takes 10–25 s, so each test gets a
 * copy (symlinks kept, so the copy's python is its own venv: sys.prefix follows pyvenv.cfg beside bin/).
 */
export async function venvTemplate(): Promise<string> {
  const dir = join(mkdtempSync(join(tmpdir(), 'resilient-venv-template-')), 'venv')
  await execa('python3', ['-m', 'venv', dir], { env: isolatedEnv() })
  return dir
}

export function copyVenv(template: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'resilient-venv-')), 'venv')
  cpSync(template, dir, { recursive: true, verbatimSymlinks: true })
  return dir
}

/** The distributions installed in a venv, by name. */
export async function distributions(python: string): Promise<string[]> {
  const { stdout } = await execa(python, ['-c', 'import importlib.metadata as m; print("\\n".join(sorted(d.metadata["Name"] for d in m.distributions())))'], { env: isolatedEnv() })
  return stdout.split('\n').filter(Boolean)
}

/**
 * A project directory with these files and a `.resilientrc.json`, the way a person configures resilient; without a
 * `relay` key the relay is off, as in test/helpers/e2e-setup.ts projectWithConfig (these tests read the installs' commands).
 */
export function projectDir(files: Record<string, string>, config: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'resilient-run-'))
  writeFileSync(join(dir, '.resilientrc.json'), JSON.stringify(relayOffUnlessSaid(config), null, 2))
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true })
    writeFileSync(join(dir, name), text)
  }
  return dir
}

/** A wheel with exactly these files (a `.pth`, a package under another name), for the checks after an install. */
export function wheelWithFiles(name: string, version: string, files: Record<string, string>): BuiltWheel {
  const module = name.toLowerCase().replace(/[-.]/g, '_')
  const distInfo = `${module}-${version}.dist-info`
  const contents: Record<string, Uint8Array> = Object.fromEntries(Object.entries(files).map(([path, text]) => [path, strToU8(text)]))
  contents[`${distInfo}/METADATA`] = strToU8(`Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\n\n`)
  contents[`${distInfo}/WHEEL`] = strToU8('Wheel-Version: 1.0\nGenerator: resilient-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n\n')
  const hash = (data: Uint8Array) => `sha256=${createHash('sha256').update(data).digest('base64url')}`
  const record = Object.entries(contents).map(([path, data]) => `${path},${hash(data)},${data.length}`)
  contents[`${distInfo}/RECORD`] = strToU8([...record, `${distInfo}/RECORD,,`, ''].join('\n'))
  const bytes = Buffer.from(zipSync(contents, { level: 0, mtime: new Date('2020-01-01') }))
  return { name, version, filename: `${module}-${version}-py3-none-any.whl`, bytes, sha256: createHash('sha256').update(bytes).digest('hex') }
}

/** `resilient [--report r] run <args>` through the built CLI, with no terminal; the report parsed afterwards. */
export async function runScript(cwd: string, args: string[], env = isolatedEnv()) {
  const report = join(mkdtempSync(join(tmpdir(), 'resilient-report-')), 'report.json')
  const result = await runCli(['--report', report, 'run', ...args], { cwd, env })
  const parsed = () => JSON.parse(readFileSync(report, 'utf8')) as RunReport
  return { ...result, env, report: parsed }
}

export interface RunReport {
  command: string[]
  finalCommand: string[]
  exitCode: number
  runs: number
  autoInstalled: { module: string; package: string; version: string; declaredIn?: string; tier: string; consent: string; environment: string; command: string }[]
  stopReason: string | null
  installs: { tool: string; exitCode: number; attempts: { command: string[]; source: string }[] }[]
}

/** The project pages the index served (`/simple/<name>/`), the requests an install makes; the root list is not one. */
export const projectRequests = (index: PypiServer): string[] => index.requests.filter(path => path.startsWith('/simple/') && path !== '/simple/')
