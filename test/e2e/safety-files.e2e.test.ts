import { execa } from 'execa'
import { chmodSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { CLI, runCli } from '../helpers/run-cli.js'
import { asSecondUser, secondUser } from '../helpers/second-user.js'

// pixi's attempt config (and any attempt file) lives in a fresh private directory, unreadable by another
// user, removed after the run, and swept by the next run when a SIGKILL left it behind.
const REPLAY = fileFromRepo('test/e2e/bin/replay/pixi-mirror-forbidden.txt')

function fileFromRepo(path: string): string {
  return join(dirname(new URL(import.meta.url).pathname), '..', '..', path)
}

/** A pixi that fails like pixi on a 403 from its channel, then hangs on the mirror attempt after noting its config. */
function hangingPixi(note: string): string {
  const bin = mkdtempSync(join(tmpdir(), 'resilient-pixi-bin-'))
  writeFileSync(join(bin, 'pixi'), `#!/bin/sh
if [ "$1" = "--version" ]; then echo "pixi 0.77.0"; exit 0; fi
if [ -z "$PIXI_CONFIG_FILE" ]; then tail -n +2 '${REPLAY}' >&2; exit 1; fi
echo "$PIXI_CONFIG_FILE" > '${note}'
exec sleep 60
`)
  chmodSync(join(bin, 'pixi'), 0o755)
  return bin
}

async function waitFor(file: string): Promise<string> {
  for (let i = 0; i < 200 && !existsSync(file); i++) await sleep(50)
  return readFileSync(file, 'utf8').trim()
}

describe('attempt files', () => {
  it('sit in a fresh 0700 directory nobody else can read, and a SIGKILL leaves nothing the next run does not sweep', async () => {
    const note = join(mkdtempSync(join(tmpdir(), 'resilient-note-')), 'config-path')
    const project = mkdtempSync(join(tmpdir(), 'resilient-pixi-project-'))
    writeFileSync(join(project, 'pixi.toml'), '[workspace]\nname = "w"\nchannels = ["conda-forge"]\nplatforms = ["linux-64"]\n')
    const env = isolatedEnv({ PATH: `${hangingPixi(note)}:${process.env.PATH}` })
    const run = execa('node', [CLI, '--max-attempts', '2', 'pixi', 'install'], { cwd: project, env, extendEnv: false, reject: false, stdin: 'ignore', timeout: 60_000 })
    const path = await waitFor(note)
    const dir = dirname(path)
    expect(dir).toMatch(/\/resilient-run-\d+-\w{6}$/)
    expect((statSync(dir).mode & 0o777).toString(8)).toBe('700')
    expect((statSync(path).mode & 0o777).toString(8)).toBe('600')
    const other = secondUser()
    if (other) {
      const read = asSecondUser(`cat '${path}'; ls '${dir}'`)
      expect(read.status).not.toBe(0)
      expect(read.output).toMatch(/Permission denied/)
    }
    run.kill('SIGKILL')
    await run
    // Left behind by the SIGKILL; any run of resilient sweeps it, and in a suite another file's run may come first.
    const next = await runCli(['--dry-run', 'pip', 'install', 'x'], { env: isolatedEnv() })
    expect(next.exitCode, next.all).toBe(0)
    expect(existsSync(dir)).toBe(false)
  }, 90_000)

  it('are removed when the run ends', async () => {
    const project = mkdtempSync(join(tmpdir(), 'resilient-pixi-project-'))
    writeFileSync(join(project, 'pixi.toml'), '[workspace]\nname = "w"\nchannels = ["conda-forge"]\nplatforms = ["linux-64"]\n')
    const result = await runCli(['--dry-run', 'pixi', 'install'], { cwd: project, env: isolatedEnv({ PATH: `${fileFromRepo('test/e2e/bin')}:${process.env.PATH}` }) })
    const path = /PIXI_CONFIG_FILE=(\S+)/.exec(result.stdout)?.[1]
    expect(path, result.all).toBeDefined()
    expect(existsSync(dirname(path!))).toBe(false)
  })
})
