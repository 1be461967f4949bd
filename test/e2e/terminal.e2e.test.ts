import { execFileSync } from 'node:child_process'
import { expect, it } from 'vitest'
import { pypiServers } from '../helpers/e2e-setup.js'
import { standIn, waitFor } from '../helpers/process-helpers.js'
import { standInTerminals } from '../helpers/tmux.js'
import { command, describeNeeding } from '../helpers/requirements.js'

// Job control and the terminal, in a real terminal (tmux), side by side with the plain tool where it helps.
// `resilient pip install x` is a network verb: resilient reads the tool's output (a pseudo-terminal when it can).

const server = pypiServers()
const terminalWith = standInTerminals()

const TICKING = `echo "ready $$" >> "$LOG"
i=0; while [ $i -lt 12 ]; do i=$((i+1)); echo "tick $i"; sleep 0.25; done
echo finished
`

describeNeeding(command('tmux'), 'in a terminal', () => {
  it('Ctrl-C stops a shell loop after the first run, as it does with the plain tool', async () => {
    const tool = standIn('pip', `echo "run $2" >> "$LOG"\nexec sleep 30\n`)
    const pane = terminalWith(tool)
    pane.type('for p in a b c; do pip install $p; done; echo LOOP-END; echo plain-done')
    await waitFor(() => tool.lines().length === 1, 'the plain tool to start')
    pane.key('C-c')
    pane.type('echo plain-stopped')
    await pane.waitFor(/^plain-stopped$/m, 'the plain loop to stop')
    expect(tool.lines()).toEqual(['run a'])
    expect(pane.screen()).not.toMatch(/^LOOP-END$/m)
    pane.type('for p in a b c; do resilient pip install $p; done; echo LOOP-END; echo wrapped-done')
    await waitFor(() => tool.lines().length === 2, 'the tool to start through resilient')
    pane.key('C-c')
    pane.type('echo wrapped-stopped')
    await pane.waitFor(/^wrapped-stopped$/m, 'the loop to stop')
    expect(tool.lines()).toEqual(['run a', 'run a'])
    expect(pane.screen()).not.toMatch(/^LOOP-END$/m)
  }, 60_000)

  it('Ctrl-C reaches the real pip once: "Operation cancelled by user", no KeyboardInterrupt traceback, pip\'s status', async () => {
    const primary = await server({ wheels: [], fault: { kind: 'blackhole' } })
    const tool = standIn('unused', '')
    const pane = terminalWith(tool)
    pane.type(`resilient --no-mirrors python3 -m pip download --no-deps -d ${tool.dir}/dl --index-url ${primary.url} demo-pkg; echo "status=$?"`)
    // Ctrl-C once pip waits on the index: before its handler is set (still importing, slow on a loaded machine) plain
    // pip dies of KeyboardInterrupt too, which is not what this test is about.
    await waitFor(() => primary.requests.length > 0, 'pip to ask the index', 30_000)
    await new Promise(resolve => setTimeout(resolve, 300))
    pane.key('C-c')
    const screen = await pane.waitFor(/status=\d+/, 'pip to stop', 30_000)
    expect(screen).toContain('Operation cancelled by user')
    expect(screen).not.toContain('Traceback')
    expect(screen).toContain('status=1')
  }, 60_000)

  it('Ctrl-C reaches a tool that handles it exactly once, and its exit status is resilient\'s', async () => {
    const tool = standIn('pip', `trap 'echo INT >> "$LOG"' INT\necho "ready $$" >> "$LOG"\ni=0; while [ $i -lt 12 ]; do sleep 0.25; i=$((i+1)); done\nexit 5\n`)
    const pane = terminalWith(tool)
    pane.type('resilient pip install x; echo "status=$?"')
    await waitFor(() => tool.lines().length === 1, 'the tool to start')
    pane.key('C-c')
    await pane.waitFor(/status=\d+/, 'the run to end')
    expect(tool.lines().filter(line => line === 'INT')).toEqual(['INT'])
    expect(pane.screen()).toContain('status=5')
  }, 60_000)

  it.each([['with the terminal as stdin', ''], ['with a pipe as stdin', 'echo | ']])('Ctrl-Z suspends the tool and resilient together, and fg resumes both (%s)', async (_, prefix) => {
    const tool = standIn('pip', TICKING)
    const pane = terminalWith(tool)
    // Alone on the line: bash goes on with the rest of a list when its job stops.
    pane.type(`${prefix}resilient pip install x`)
    await pane.waitFor(/tick 2/, 'the tool to tick')
    pane.key('C-z')
    await pane.waitFor(/Stopped/, 'the job to stop')
    const ticks = () => (pane.screen().match(/tick \d+/g) ?? []).length
    const stopped = ticks()
    await new Promise(resolve => setTimeout(resolve, 1200))
    expect(ticks()).toBe(stopped)
    pane.type('fg')
    await pane.waitFor(/^finished$/m, 'the job to finish')
    pane.type('echo "status=$?"')
    expect(await pane.waitFor(/status=\d+/, 'its status')).toContain('status=0')
    expect(ticks()).toBe(12)
  }, 60_000)

  it('a background run completes without stopping, and keys typed during a run stay with the shell', async () => {
    const tool = standIn('pip', `sleep 1\necho background-output\n`)
    const pane = terminalWith(tool)
    pane.type('resilient pip install x & wait $!; echo "status=$?"')
    const screen = await pane.waitFor(/status=\d+/, 'the background run to end')
    expect(screen).not.toMatch(/Stopped/)
    expect(screen).toContain('status=0')
    pane.type('resilient pip install x; echo "second=$?"')
    await new Promise(resolve => setTimeout(resolve, 300))
    pane.type('echo typed-ahead-$((40+2))')
    await pane.waitFor(/typed-ahead-42/, 'the shell to run what was typed during the run')
  }, 60_000)

  it('a pipe given as stdin reaches the tool, not the terminal', async () => {
    const tool = standIn('pip', `read -r answer\necho "read: $answer"\n`)
    const pane = terminalWith(tool)
    pane.type('echo yes-from-pipe | resilient pip install x; echo "status=$?"')
    const screen = await pane.waitFor(/status=\d+/, 'the run to end')
    expect(screen).toContain('read: yes-from-pipe')
    expect(screen).toContain('status=0')
  }, 60_000)

  it('leaves the terminal\'s modes as they were, even when resilient is killed with SIGKILL', async () => {
    const tool = standIn('pip', `echo "ready $$" >> "$LOG"\nsleep 30\n`)
    const pane = terminalWith(tool)
    pane.type('stty -a | tr " " "\\n" | grep -E "^-?(icanon|echo|isig)$" | tr "\\n" " "; echo :before')
    // The command line itself shows ":before" as it is typed: wait for the output line.
    const before = /((?:-?\w+ ){3}):before/.exec(await pane.waitFor(/(?:-?\w+ ){3}:before/, 'the modes'))![1]
    const marker = `package-${process.pid}-${Date.now()}`
    pane.type(`resilient pip install ${marker}`)
    await waitFor(() => tool.lines().length === 1, 'the tool to start')
    const resilient = Number(execFileSync('pgrep', ['-f', '-n', `dist/cli.cjs pip install ${marker}`], { encoding: 'utf8' }).trim())
    process.kill(resilient, 'SIGKILL')
    await pane.waitFor(/Killed/, 'the shell to see resilient killed')
    pane.type('stty -a | tr " " "\\n" | grep -E "^-?(icanon|echo|isig)$" | tr "\\n" " "; echo :after')
    const after = /((?:-?\w+ ){3}):after/.exec(await pane.waitFor(/(?:-?\w+ ){3}:after/, 'the modes after'))![1]!
    expect(after).toBe(before)
    expect(after.trim().split(' ').sort()).toEqual(['echo', 'icanon', 'isig'])
  }, 60_000)
})
