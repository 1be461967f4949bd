import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { describe, expect, it } from 'vitest'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { pty as terminal } from '../helpers/pty.js'
import { CLI } from '../helpers/run-cli.js'

/** A fake pip that starts a grandchild (like a build subprocess) and waits; it records every pid it started. */
function fakePip(): { dir: string; pids: string; env: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'fake-pip-'))
  const pids = join(dir, 'pids')
  writeFileSync(join(dir, 'pip'), `#!/bin/sh
echo "$$" >> "${pids}"
if [ "$1" = "tty" ]; then [ -t 1 ] && echo "stdout is a terminal" || echo "stdout is a pipe"; exit 0; fi
sleep 1000 &
echo "$!" >> "${pids}"
wait
`)
  chmodSync(join(dir, 'pip'), 0o755)
  return { dir, pids, env: isolatedEnv({ PATH: `${dir}:${process.env.PATH}` }) }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ')
  } catch {
    return false
  }
}

async function waitFor(condition: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting')
    await new Promise(resolve => setTimeout(resolve, 50))
  }
}

const pidsOf = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map(Number)

describe('signals and process hygiene', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s reaches the child, nothing is retried, resilient dies of it as the child did, no orphans', async signal => {
    const pip = fakePip()
    const child = execa('node', [CLI, 'pip', 'install', 'x'], { env: pip.env, extendEnv: false, reject: false, stdin: 'ignore' })
    await waitFor(() => existsSync(pip.pids) && pidsOf(pip.pids).length >= 2)
    child.kill(signal)
    const result = await child
    expect(result.signal).toBe(signal)
    expect(result.stderr).toMatch(/interrupted/)
    const pids = pidsOf(pip.pids)
    expect(pids).toHaveLength(2) // one attempt: no retry after an interrupt
    await waitFor(() => pids.every(pid => !alive(pid)), 3000)
  })

  it.skipIf(!terminal)('gives the child a terminal when resilient has one, and pipes otherwise', async () => {
    const pip = fakePip()
    const piped = await execa('node', [CLI, 'pip', 'tty'], { env: pip.env, extendEnv: false, reject: false, stdin: 'ignore' })
    expect(piped.stdout).toBe('stdout is a pipe')
    const pty = terminal!.spawn('node', [CLI, 'pip', 'tty'], { env: pip.env, cols: 80, rows: 24 })
    let screen = ''
    pty.onData(data => { screen += data })
    const exit = await new Promise<number>(resolve => pty.onExit(({ exitCode }) => resolve(exitCode)))
    expect(exit).toBe(0)
    expect(screen).toContain('stdout is a terminal')
  })

  it.skipIf(!terminal)('Ctrl-C typed in a terminal interrupts the run: resilient dies of SIGINT as the tool did', async () => {
    const pip = fakePip()
    const pty = terminal!.spawn('node', [CLI, 'pip', 'install', 'x'], { env: pip.env, cols: 80, rows: 24 })
    let screen = ''
    pty.onData(data => { screen += data })
    const exited = new Promise<number | undefined>(resolve => pty.onExit(({ signal }) => resolve(signal)))
    await waitFor(() => existsSync(pip.pids) && pidsOf(pip.pids).length >= 2)
    pty.write('\x03')
    expect(await exited).toBe(2)
    expect(screen).toMatch(/interrupted/)
    const pids = pidsOf(pip.pids)
    expect(pids).toHaveLength(2)
    await waitFor(() => pids.every(pid => !alive(pid)), 3000)
  })
})
