import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { describe, expect, it } from 'vitest'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { LAUNCHER } from '../helpers/process-helpers.js'

// The program run is the one the shell would run (bash's command search), or it fails as the shell fails.

function pathOf(...dirs: string[]): string {
  return [...dirs, '/usr/bin', '/bin'].join(':')
}

/** A directory holding only node (the machine's own pip lives next to node in /usr/bin). */
function nodeOnly(root: string): string {
  mkdirSync(join(root, 'node'))
  symlinkSync(process.execPath, join(root, 'node/node'))
  return join(root, 'node')
}

function tool(dir: string, name: string, body: string, mode = 0o755): void {
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, name), body, { mode })
  chmodSync(join(dir, name), mode)
}

const run = (args: string[], env: Record<string, string>, cwd?: string) =>
  execa(LAUNCHER, args, { env, extendEnv: false, reject: false, stdin: 'ignore', cwd, timeout: 30_000 })

describe('program lookup as the shell does it', () => {
  it('a first pip with a broken interpreter line exits 127 like bash, and the second pip never runs', async () => {
    const root = mkdtempSync(join(tmpdir(), 'resilient-lookup-'))
    tool(join(root, 'venv-gone/bin'), 'pip', '#!/nonexistent/venv/bin/python\nprint("never")\n')
    tool(join(root, 'other/bin'), 'pip', `#!/bin/sh\ntouch "${root}/second-ran"\n`)
    const env = isolatedEnv({ PATH: pathOf(join(root, 'venv-gone/bin'), join(root, 'other/bin')) })
    const shell = await execa('bash', ['-c', 'pip install x'], { env, extendEnv: false, reject: false })
    for (const args of [['pip', 'install', 'x'], ['pip', 'list']]) {
      const result = await run(args, env)
      expect(result.exitCode, result.stderr).toBe(shell.exitCode)
      expect(result.exitCode).toBe(127)
      expect(result.stderr).toContain(`${root}/venv-gone/bin/pip: cannot execute: its interpreter /nonexistent/venv/bin/python does not exist`)
    }
    expect(await execa('test', ['-e', join(root, 'second-ran')], { reject: false }).then(r => r.exitCode)).toBe(1)
  })

  it('a pip that is not executable, with no other on PATH, exits 126 like bash', async () => {
    const root = mkdtempSync(join(tmpdir(), 'resilient-lookup-'))
    tool(join(root, 'bin'), 'pip', '#!/bin/sh\necho ran\n', 0o644)
    const env = isolatedEnv({ PATH: [join(root, 'bin'), nodeOnly(root)].join(':') })
    const shell = await execa('/bin/bash', ['-c', 'pip list'], { env, extendEnv: false, reject: false })
    const result = await run(['pip', 'list'], env)
    expect(shell.exitCode).toBe(126)
    expect(result.exitCode, result.stderr).toBe(126)
    expect(result.stderr).toMatch(/Permission denied/)
  })

  it('a relative PATH entry is honoured as the shell honours it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'resilient-lookup-'))
    tool(join(root, 'tools'), 'pip', '#!/bin/sh\necho "relative pip $*"\n')
    const env = isolatedEnv({ PATH: ['tools', nodeOnly(root)].join(':') })
    const shell = await execa('/bin/bash', ['-c', 'pip list'], { env, extendEnv: false, reject: false, cwd: root })
    const result = await run(['pip', 'list'], env, root)
    expect(shell.stdout).toBe('relative pip list')
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toBe('relative pip list')
  })

  it('runs the tool in a working directory that was deleted, as the shell does', async () => {
    const root = mkdtempSync(join(tmpdir(), 'resilient-lookup-'))
    tool(join(root, 'bin'), 'pip', '#!/bin/sh\necho "pip ran $*"\n')
    const gone = join(root, 'gone')
    mkdirSync(gone)
    const env = isolatedEnv({ PATH: pathOf(join(root, 'bin'), join(process.execPath, '..')) })
    const result = await execa('/bin/sh', ['-c', `cd "${gone}" && rmdir "${gone}" && exec "$0" pip list`, LAUNCHER], { env, extendEnv: false, reject: false, timeout: 30_000 })
    expect(result.stderr).not.toMatch(/internal error/)
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toBe('pip ran list')
    rmSync(root, { recursive: true, force: true })
  })

  // A shim runs read-only calls without Node, with its own PATH walk in sh: it must find the same program as bash and
  // as resilient itself, or `pip --version` and `pip install` would speak of two different pips.
  async function shimmed(root: string, path: string[], cwd: string) {
    const env = isolatedEnv()
    const shims = join(root, 'shims')
    const installed = await execa(LAUNCHER, ['shim', 'install', '--dir', shims, 'pip'], { env, extendEnv: false, reject: false, timeout: 30_000 })
    expect(installed.exitCode, installed.stderr).toBe(0)
    const shimEnv = { ...env, PATH: [shims, ...path].join(':') }
    const bash = (line: string) => execa('/bin/bash', ['-c', line], { env: shimEnv, extendEnv: false, reject: false, stdin: 'ignore', cwd, timeout: 30_000 })
    return { bash, plain: (line: string) => execa('/bin/bash', ['-c', line], { env: { ...env, PATH: path.join(':') }, extendEnv: false, reject: false, cwd }) }
  }

  it.each([
    ['an empty entry in the middle', (node: string) => [node, '', '/usr/bin', '/bin']],
    ['an empty entry at the end (a trailing colon)', (node: string) => [node, '/bin/no-such-dir', '']],
  ])('through a shim, %s means the working directory, for a read-only call as for an install', async (_, pathOf) => {
    const root = mkdtempSync(join(tmpdir(), 'resilient-lookup-'))
    tool(join(root, 'work'), 'pip', '#!/bin/sh\necho "pip of the working directory: $*"\n')
    // The lookup is what is tested: the relay (on by default) would add its own --index-url to the install.
    writeFileSync(join(root, 'work', '.resilientrc.json'), '{ "relay": false }\n')
    const path = pathOf(nodeOnly(root))
    const { bash, plain } = await shimmed(root, path, join(root, 'work'))
    expect((await plain('pip --version')).stdout).toBe('pip of the working directory: --version')
    for (const line of ['pip --version', 'pip install x']) {
      const result = await bash(line)
      expect(result.exitCode, result.stderr).toBe(0)
      expect(result.stdout).toBe(`pip of the working directory: ${line.slice(4)}`)
    }
  })

  it('through a shim, a pip that is not executable, with no other on PATH, exits 126 like bash for a read-only call too', async () => {
    const root = mkdtempSync(join(tmpdir(), 'resilient-lookup-'))
    tool(join(root, 'bin'), 'pip', '#!/bin/sh\necho ran\n', 0o644)
    const path = [join(root, 'bin'), nodeOnly(root)]
    const { bash, plain } = await shimmed(root, path, root)
    expect((await plain('pip --version')).exitCode).toBe(126)
    for (const line of ['pip --version', 'pip install x']) {
      const result = await bash(line)
      expect(result.exitCode, `${line}: ${result.stderr}`).toBe(126)
      expect(result.stderr).toContain(`${root}/bin/pip: Permission denied`)
    }
  })
})
