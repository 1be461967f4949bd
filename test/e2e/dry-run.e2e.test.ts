import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MIRRORS } from '../../src/mirrors/index.js'
import { TOOLS } from '../../src/tools/index.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli } from '../helpers/run-cli.js'

// `resilient --dry-run <tool> <verb> <pkg>` prints the planned attempts for every tool, each
// mirror attempt showing the mirror URL (argv, environment or generated config). PATH holds only node, so no tool is
// installed: a dry run still plans.
function pathWithOnlyNode(): string {
  const dir = mkdtempSync(join(tmpdir(), 'only-node-'))
  symlinkSync(process.execPath, join(dir, 'node'))
  return dir
}
const COMMANDS: Record<string, string> = {
  pip: 'pip install torch', npm: 'npm install left-pad', pnpm: 'pnpm add left-pad', yarn: 'yarn add left-pad',
  bun: 'bun add left-pad', cargo: 'cargo fetch', go: 'go mod download', uv: 'uv pip install torch',
  conda: 'conda install numpy', mamba: 'mamba install numpy', micromamba: 'micromamba install numpy',
  pixi: 'pixi add numpy', pipx: 'pipx install black', pdm: 'pdm add requests',
}
// No per-run index switch exists for poetry: its attempts retry its own index (docs/tools/poetry.md).
const NO_MIRROR = ['poetry']

describe('--dry-run plans for every tool, installed or not', () => {
  const env = isolatedEnv({ PATH: pathWithOnlyNode() })

  it.each(Object.entries(COMMANDS))('%s', async (tool, command) => {
    const result = await runCli(['--dry-run', '--max-attempts', '3', ...command.split(' ')], { env })
    expect(result.exitCode, result.all).toBe(0)
    const lines = result.stdout.trim().split('\n')
    expect(lines).toHaveLength(3)
    const ecosystem = TOOLS[tool as keyof typeof TOOLS].ecosystem
    const hosts = MIRRORS[ecosystem].map(mirror => new URL(mirror.url).host)
    expect(lines[0]).not.toMatch(new RegExp(hosts.join('|').replace(/\./g, '\\.')))
    for (const line of lines.slice(1)) expect(hosts.some(host => line.includes(host)), line).toBe(true)
    expect(result.stderr).toMatch(/not on PATH here; the plan is shown/)
  })

  it.each(NO_MIRROR)('%s: every attempt on its own index, said so', async tool => {
    const result = await runCli(['--dry-run', '--verbose', tool, 'add', 'requests'], { env })
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stdout.trim().split('\n')).toHaveLength(1)
  })

  it('every adapter is covered here', () => {
    expect(Object.keys(TOOLS).filter(name => name !== 'yarn-berry').sort()).toEqual([...Object.keys(COMMANDS), ...NO_MIRROR].sort())
  })
})

describe('--dry-run shows what a generated config file says, not only where it is', () => {
  it('pixi: the mirror config with the mirror URL and the user\'s own settings, credentials redacted', async () => {
    const env = isolatedEnv({ PATH: [join(import.meta.dirname, 'bin'), pathWithOnlyNode()].join(delimiter) })
    mkdirSync(join(env.HOME!, '.pixi'), { recursive: true })
    writeFileSync(join(env.HOME!, '.pixi', 'config.toml'), '[pypi-config]\nindex-url = "https://bob:Hunter2secret@pypi.corp.example/simple"\n')
    const result = await runCli(['--dry-run', '--max-attempts', '2', 'pixi', 'add', 'numpy'], { env })
    expect(result.exitCode, result.all).toBe(0)
    const mirror = MIRRORS.conda[0]!.url.replace(/\/?$/, '/')
    const config = result.stderr.slice(result.stderr.indexOf('# attempt 2 of 2'))
    expect(config).toMatch(/^# {3}\/.*\/pixi-[^/]*\.toml:$/m)
    expect(config).toContain(`#     "https://conda.anaconda.org/" = [ "${mirror}" ]`)
    expect(config).toContain('#     index-url = "https://****@pypi.corp.example/simple"')
    expect(result.all).not.toContain('Hunter2secret')
    expect(result.stdout.trim().split('\n')).toHaveLength(2)
  })
})
