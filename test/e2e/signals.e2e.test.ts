import { execa } from 'execa'
import { describe, expect, it } from 'vitest'
import { pty as terminal } from '../helpers/pty.js'
import { CLI } from '../helpers/run-cli.js'
import { gone, identify, standIn, waitFor, type StandIn } from '../helpers/process-helpers.js'

/** A fake pip that starts a grandchild (like a build subprocess) and waits; it records every pid it started in $LOG. */
function fakePip(): StandIn {
  return standIn('pip', `echo "$$" >> "$LOG"
if [ "$1" = "tty" ]; then [ -t 1 ] && echo "stdout is a terminal" || echo "stdout is a pipe"; exit 0; fi
sleep 1000 &
echo "$!" >> "$LOG"
wait
`)
}

describe('signals and process hygiene', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s reaches the child, nothing is retried, resilient dies of it as the child did, no orphans', async signal => {
    const pip = fakePip()
    const child = execa('node', [CLI, 'pip', 'install', 'x'], { env: pip.env, extendEnv: false, reject: false, stdin: 'ignore' })
    await waitFor(() => pip.lines().length >= 2, 'pip and its grandchild', 10_000)
    child.kill(signal)
    const result = await child
    expect(result.signal).toBe(signal)
    expect(result.stderr).toMatch(/interrupted/)
    const pids = pip.lines().map(Number)
    expect(pids).toHaveLength(2) // one attempt: no retry after an interrupt
    const processes = identify(pids)
    await waitFor(() => processes.every(gone), 'every pid to end', 3000)
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
    await waitFor(() => pip.lines().length >= 2, 'pip and its grandchild', 10_000)
    pty.write('\x03')
    expect(await exited).toBe(2)
    expect(screen).toMatch(/interrupted/)
    const pids = pip.lines().map(Number)
    expect(pids).toHaveLength(2)
    const processes = identify(pids)
    await waitFor(() => processes.every(gone), 'every pid to end', 3000)
  })
})
