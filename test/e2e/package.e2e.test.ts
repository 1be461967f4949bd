import { execa } from 'execa'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { isolatedEnv } from '../helpers/isolated-env.js'

// `npm pack` from what a clean clone holds (no dist/), unpacked and run as an installed package would be. .ci/run
// also installs the tarball with `npm install -g`, which needs the registry for the dependencies.
const root = fileURLToPath(new URL('../../', import.meta.url))
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }
let installed: string
let files: string[]

beforeAll(async () => {
  const clone = mkdtempSync(join(tmpdir(), 'resilient-clone-'))
  const listed = await execa('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: root })
  for (const file of listed.stdout.split('\0').filter(file => file && existsSync(join(root, file)))) {
    mkdirSync(dirname(join(clone, file)), { recursive: true })
    cpSync(join(root, file), join(clone, file))
  }
  symlinkSync(join(root, 'node_modules'), join(clone, 'node_modules'))
  const out = mkdtempSync(join(tmpdir(), 'resilient-pack-'))
  const packed = await execa('npm', ['pack', '--json', '--pack-destination', out], { cwd: clone, env: isolatedEnv(), extendEnv: false })
  const [{ filename, files: entries }] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as [{ filename: string; files: { path: string }[] }]
  files = entries.map(entry => entry.path)
  installed = mkdtempSync(join(tmpdir(), 'resilient-installed-'))
  await execa('tar', ['-xzf', join(out, filename), '-C', installed])
  installed = join(installed, 'package')
  // The dependencies an install would bring, from this checkout.
  symlinkSync(join(root, 'node_modules'), join(installed, 'node_modules'))
}, 180_000)

const run = (args: string[]) => execa(process.execPath, [join(installed, 'bin/resilient.js'), ...args], { env: isolatedEnv(), extendEnv: false, reject: false, all: true })

describe('the packed package', () => {
  it('builds on pack and ships the CLI, the docs and nothing of the sources or tests', () => {
    expect(files).toEqual(expect.arrayContaining(['bin/resilient', 'bin/resilient.js', 'dist/cli.cjs', 'docs/exit-codes.md', 'docs/tools/pip.md', 'README.md', 'package.json']))
    expect(files.filter(file => /^(src|test|bench|scripts)\//.test(file))).toEqual([])
  })

  it('runs: --version, --help and why --help', async () => {
    const versionResult = await run(['--version'])
    expect(versionResult.all).toBe(version)
    const help = await run(['--help'])
    expect(help.exitCode, help.all).toBe(0)
    expect(help.stdout).toContain('Usage: resilient [options] <tool> [args...]')
    const why = await run(['why', '--help'])
    expect(why.exitCode, why.all).toBe(0)
    expect(why.stdout).toContain('Usage: resilient why')
  })

  it('is importable by its name as a library: runTool is the tool run the CLI makes', async () => {
    const program = mkdtempSync(join(tmpdir(), 'resilient-program-'))
    mkdirSync(join(program, 'node_modules'))
    symlinkSync(installed, join(program, 'node_modules', 'resilient-install'))
    const probe = await execa(process.execPath, ['--input-type=module', '-e', "const api = await import('resilient-install'); console.log(typeof api.runTool)"], { cwd: program, env: isolatedEnv(), extendEnv: false, reject: false, all: true })
    expect(probe.all).toBe('function')
  })

  it('has every docs/ page that --help names, and says where they are', async () => {
    const help = (await run(['--help'])).stdout
    expect(help).toContain(`The docs/ named here are in ${join(installed, 'docs')}/`)
    const named = [...new Set(help.match(/docs\/[\w/-]+\.md/g))]
    expect(named.length).toBeGreaterThan(2)
    for (const page of named) expect(existsSync(join(installed, page)), page).toBe(true)
  })
})
