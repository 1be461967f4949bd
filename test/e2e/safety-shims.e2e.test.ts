import { execa } from 'execa'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli } from '../helpers/run-cli.js'
import { asSecondUser, secondUser } from '../helpers/second-user.js'

// A shim copied without its manifest never runs itself in a loop; shim install writes through no
// symbolic link, and warns about a directory other users can write to.
async function install(dir: string, tools = ['uv']) {
  const env = isolatedEnv()
  return { env, result: await runCli(['shim', 'install', '--dir', dir, ...tools], { env }) }
}

describe('shims', () => {
  it('a shim copied elsewhere without its manifest ends with 127 when no real tool is left, never loops', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'shims-')), 'shims')
    const { env, result } = await install(dir)
    expect(result.exitCode, result.all).toBe(0)
    const copy = mkdtempSync(join(tmpdir(), 'shim-copy-'))
    copyFileSync(join(dir, 'uv'), join(copy, 'uv'))
    // No real uv on this PATH: only the copy, and the system's sh, sed and node.
    for (const extra of [{}, { RESILIENT_ACTIVE: '1' }]) {
      const run = await execa(join(copy, 'uv'), ['pip', 'install', 'x'], { env: { ...env, ...extra, PATH: `${copy}:/usr/bin:/bin` }, extendEnv: false, reject: false, timeout: 20_000 })
      expect(run.timedOut, 'the shim looped').toBe(false)
      expect(run.exitCode, run.stderr).toBe(127)
    }
  }, 60_000)

  it('refuses to write through a symbolic link at a shim\'s name or its manifest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shims-'))
    const victim = join(mkdtempSync(join(tmpdir(), 'victim-')), 'bashrc')
    writeFileSync(victim, 'mine\n')
    symlinkSync(victim, join(dir, 'uv'))
    const first = await install(dir)
    expect(first.result.stderr).toMatch(/left .*\/uv alone: resilient did not write it/)
    expect(readFileSync(victim, 'utf8')).toBe('mine\n')
    const other = mkdtempSync(join(tmpdir(), 'shims-'))
    symlinkSync(victim, join(other, '.resilient-shims'))
    const second = await install(other)
    expect(second.result.exitCode).toBe(73)
    expect(second.result.stderr).toMatch(/is a symbolic link: resilient will not write through it/)
    expect(readFileSync(victim, 'utf8')).toBe('mine\n')
  })

  it('warns when the directory is writable by other users, and another user cannot replace the shims of a private one', async () => {
    const shared = mkdtempSync(join(tmpdir(), 'shared-shims-'))
    mkdirSync(join(shared, 'bin'), { mode: 0o777 })
    await execa('chmod', ['777', join(shared, 'bin')])
    const { result } = await install(join(shared, 'bin'))
    expect(result.stderr).toMatch(/is writable by other users: any of them could replace these shims/)
    const privateDir = join(mkdtempSync(join(tmpdir(), 'private-shims-')), 'shims')
    const quiet = await install(privateDir)
    expect(quiet.result.stderr).not.toMatch(/writable by other users/)
    if (secondUser()) {
      await execa('chmod', ['755', join(privateDir, '..')])
      const planted = asSecondUser(`echo evil > '${privateDir}/uv' || exit 1; ln -s /etc/passwd '${privateDir}/uv.1.tmp'`)
      expect(planted.status).not.toBe(0)
      expect(readFileSync(join(privateDir, 'uv'), 'utf8')).toContain('# resilient-shim v2')
    }
  })
})
