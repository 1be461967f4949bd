import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startNpmRegistry, type NpmRegistry } from '../helpers/fake-npm-registry.js'
import { execa } from 'execa'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { projectDir, runScript } from '../helpers/run-helpers.js'

// `resilient run` with real Node scripts, installing with the real npm from a local registry through the built CLI.
let registry: NpmRegistry

beforeAll(async () => {
  registry = await startNpmRegistry({
    packages: [
      { name: 'lodash', version: '4.17.21', files: { 'fp.js': 'module.exports = { name: "lodash/fp" }\n' } },
      { name: 'chalk', version: '5.3.0', files: { 'index.js': 'module.exports = "chalk from the local registry"\n' } },
      { name: 'chalk', version: '5.4.0', files: { 'index.js': 'module.exports = "chalk 5.4.0"\n' } },
      { name: 'express', version: '4.21.0' },
      { name: 'left-pad', version: '1.3.0' },
      { name: 'crossenv', version: '0.0.2' },
    ],
  })
})

afterAll(() => registry?.close())

const PACKAGE_JSON = '{\n  "name": "app",\n  "version": "1.0.0"\n}\n'
const project = (files: Record<string, string>) => projectDir({ 'package.json': PACKAGE_JSON, ...files }, { npm: { index: registry.url, mirrors: [] } })
const packageRequests = () => registry.requests.filter(path => !path.startsWith('/-/'))

describe('resilient run with Node', () => {
  it('installs the package of a CommonJS subpath with npm, without touching package.json, and runs again', async () => {
    const cwd = project({ 'app.js': 'const fp = require("lodash/fp")\nconsole.log("loaded", fp.name)\n' })
    const result = await runScript(cwd, ['--yes', '--', 'node', 'app.js'])
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stdout).toBe('loaded lodash/fp')
    expect(result.stderr).toMatch(/Cannot find module 'lodash\/fp'/)
    expect(existsSync(join(cwd, 'node_modules/lodash/package.json'))).toBe(true)
    expect(readFileSync(join(cwd, 'package.json'), 'utf8')).toBe(PACKAGE_JSON)
    const report = result.report()
    expect(report.autoInstalled).toMatchObject([{ module: 'lodash', package: 'lodash', tier: 'allowlist', consent: 'yes-flag', environment: `${cwd} (npm: no lockfile, so the default)` }])
    expect(report.installs[0]!.attempts[0]!.command).toEqual(expect.arrayContaining(['npm', 'install', '--no-save', '--ignore-scripts', '--', 'lodash', `--registry=${registry.url}`]))
  })

  it('keeps earlier auto-installs and the user\'s own --no-save packages, installing the rest in one command', async () => {
    const cwd = project({ 'first.js': 'require("lodash")\n', 'second.js': 'require("chalk")\nrequire("express")\nconsole.log("both")\n' })
    const env = isolatedEnv()
    await execa('npm', ['install', '--no-save', '--ignore-scripts', `--registry=${registry.url}`, 'left-pad'], { cwd, env })
    expect((await runScript(cwd, ['--yes', '--', 'node', 'first.js'], env)).exitCode).toBe(0)
    const second = await runScript(cwd, ['--yes', '--', 'node', 'second.js'], env)
    expect(second.exitCode, second.all).toBe(0)
    expect(second.stdout).toBe('both')
    expect(second.report().installs).toHaveLength(1)
    expect(second.report().autoInstalled.map(entry => entry.package)).toEqual(['chalk', 'express'])
    for (const name of ['lodash', 'left-pad', 'chalk', 'express']) expect(existsSync(join(cwd, 'node_modules', name, 'package.json')), name).toBe(true)
    expect(second.stderr).not.toMatch(/removed \d+ package/)
  })

  it('installs every package of several requires on one line in one command, and runs the script once more', async () => {
    const cwd = project({ 'app.js': 'const _ = require("lodash"); const chalk = require("chalk"); console.log("both", chalk)\n' })
    const result = await runScript(cwd, ['--yes', '--', 'node', 'app.js'])
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stdout).toBe('both chalk 5.4.0')
    expect(result.report()).toMatchObject({ runs: 2 })
    expect(result.report().autoInstalled.map(entry => entry.package)).toEqual(['lodash', 'chalk'])
    expect(result.report().installs).toHaveLength(1)
  })

  it('installs the range package.json declares, and says it is declared', async () => {
    const cwd = projectDir({ 'package.json': '{"name":"app","version":"1.0.0","dependencies":{"chalk":"~5.3.0"}}', 'app.js': 'console.log(require("chalk"))\n' }, { npm: { index: registry.url, mirrors: [] } })
    const result = await runScript(cwd, ['--yes', '--', 'node', 'app.js'])
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stdout).toBe('chalk from the local registry')
    expect(result.stderr).toMatch(/chalk is already declared in package\.json dependencies/)
  })

  it('installs into the project of the importing file from another directory (ESM)', async () => {
    const cwd = project({ 'main.mjs': 'import chalk from "chalk"\nconsole.log(chalk)\n' })
    const elsewhere = projectDir({}, { npm: { index: registry.url, mirrors: [] } })
    const result = await runScript(elsewhere, ['--yes', '--', 'node', join(cwd, 'main.mjs')])
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stdout).toBe('chalk 5.4.0')
    expect(existsSync(join(cwd, 'node_modules/chalk'))).toBe(true)
    expect(existsSync(join(elsewhere, 'node_modules'))).toBe(false)
  })

  it('passes the command and its options through untouched, with or without --', async () => {
    const cwd = project({ 'args.js': 'console.log(JSON.stringify(process.argv.slice(2)))\nprocess.exitCode = 4\n' })
    const withSeparator = await runScript(cwd, ['--', 'node', 'args.js', '--yes', '--no-auto-install', '-v', '--', 'x'])
    expect(withSeparator.stdout).toBe('["--yes","--no-auto-install","-v","--","x"]')
    expect(withSeparator.exitCode).toBe(4)
    const without = await runScript(cwd, ['node', 'args.js', '--report', 'r'])
    expect(without.stdout).toBe('["--report","r"]')
  })

  it.each([
    ['a builtin without its node: prefix', 'require("test")\n', /Node builtin module[\s\S]*node:test/, 1],
    ['a relative path', 'require("./missing")\n', /path or URL, not a package/, 1],
    ['an unreviewed name, even with --yes (the script\'s own status)', 'require("left-pad")\n', /reviewed names only/, 1],
    ['a known squat', 'require("crossenv")\n', /typosquat[\s\S]*Did you mean cross-env\?/, 1],
    ['a name that would be an npm option', 'require("--no-ignore-scripts")\n', /not a valid npm package name/, 1],
    ['a name that would be -g', 'require("-g")\n', /not a valid npm package name/, 1],
    ['"Cannot find module" printed by console.log', 'console.log("Error: Cannot find module \'express\'")\nprocess.exit(1)\n', /^$/, 1],
    // The child's error reaches stderr, as the script's own would.
    ['a subprocess\'s failure the script handled', 'require("child_process").spawnSync(process.execPath, ["-e", "require(\'express\')"], { stdio: "inherit" })\nprocess.exit(1)\n', /Cannot find module 'express'/, 1],
  ])('installs nothing for %s', async (_, script, message, exitCode) => {
    const before = packageRequests().length
    const cwd = project({ 'app.js': script })
    const result = await runScript(cwd, ['--yes', '--', 'node', 'app.js'])
    expect(result.exitCode).toBe(exitCode)
    expect(result.stderr).toMatch(message)
    expect(result.report()).toMatchObject({ runs: 1, autoInstalled: [] })
    expect(packageRequests().length).toBe(before)
    expect(existsSync(join(cwd, 'node_modules'))).toBe(false)
  })
})
