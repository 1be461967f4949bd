import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { describe, expect, it } from 'vitest'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { LAUNCHER } from './process-helpers.js'

// Issue 20: the program run is the one the shell would run (bash's command search), or it fails as the shell fails.

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
})
