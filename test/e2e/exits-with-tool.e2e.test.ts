import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { alive, bashBeside, linkLauncherBeside, standIn, waitFor } from '../helpers/process-helpers.js'
import { command, describeNeeding } from '../helpers/requirements.js'
import { standInTerminals, type Tmux } from '../helpers/tmux.js'

// Nothing keeps resilient running once the tool has exited, whatever its stdin, stdout and stderr are, in a
// terminal or not, with a pseudo-terminal or pipes (--no-pty takes the path of a machine without node-pty).

const terminalWith = standInTerminals()

/** A pip that asks a question and reads the answer from its stdin, as `pip uninstall` does; other verbs say nothing. */
const ASKS = 'case "$1" in install) printf "Proceed (Y/n)? "; read -r answer; echo "answer: $answer";; esac\n'
/** A pip that leaves a helper running, which writes after pip has exited (a build server, a background job). */
const LEAVES_HELPER = 'case "$1" in install) (sleep 4; echo late-from-helper; echo "helper-done" >> "$LOG") & echo tool-done;; esac\n'

/** Runs `line` `runs` times in the pane, each bounded by timeout(1); resolves with the statuses the runs ended with. */
async function loop(pane: Tmux, line: string, runs: number): Promise<string[]> {
  pane.type(`clear; for i in $(seq 1 ${runs}); do ${line}; echo "run=$i status=$?"; done; echo LOOP-DONE`)
  const screen = await pane.waitFor(/^LOOP-DONE$/m, `${runs} runs`, runs * 25_000)
  return [...screen.matchAll(/^run=\d+ status=(\d+)$/gm)].map(match => match[1]!)
}

describeNeeding(command('tmux'), 'in a terminal, run after run', () => {
  // timeout(1) --foreground keeps the run in the terminal's foreground job; 124 is a run it had to end.
  // `echo y | resilient pip install x` (reported to hang in about half the runs), then every other kind of stdin and
  // stdout, fewer times each.
  it.each([
    ['a pipe as stdin, the tool reading it', 'echo y | timeout --foreground 20 resilient pip install x', 20],
    ['a pipe as stdin, without the relay', 'echo y | timeout --foreground 20 resilient --no-relay pip install x', 10],
    ['/dev/null as stdin', 'timeout --foreground 20 resilient pip install x </dev/null', 10],
    ['stdout to a file, stderr to the terminal', 'echo y | timeout --foreground 20 resilient pip install x >/dev/null', 10],
    ['stdout closed', 'echo y | timeout --foreground 20 resilient pip install x >&-', 10],
  ])('ends with the tool, run after run: %s', async (_, line, runs) => {
    const tool = standIn('pip', ASKS)
    const statuses = await loop(terminalWith(tool), line, runs)
    expect(statuses).toEqual(Array(runs).fill('0'))
  }, 600_000)

  // A pseudo-terminal for the output, and pipes instead (--no-pty: the path of a machine without node-pty).
  it.each([['with a pseudo-terminal', '', 20], ['without one', '--no-pty ', 10]])('the terminal as stdin, stdout and stderr, %s: the runs end with the tool', async (_, flag, runs) => {
    const tool = standIn('pip', 'case "$1" in install) echo "to stdout"; echo "to stderr" >&2; exit 3;; esac\n')
    const statuses = await loop(terminalWith(tool), `timeout --foreground 20 resilient ${flag}--no-mirrors --max-attempts 1 pip install x`, runs)
    expect(statuses).toEqual(Array(runs).fill('3'))
  }, 600_000)

  it.each([['with a pseudo-terminal', ''], ['without one', '--no-pty ']])('a helper the tool left running does not keep resilient (%s); its output still shows', async (_, flag) => {
    const tool = standIn('pip', LEAVES_HELPER)
    const pane = terminalWith(tool)
    pane.type(`resilient ${flag}-q --no-mirrors pip install x; echo "status=$?"; echo "helper-alive=$(grep -c helper-done "$LOG" 2>/dev/null || echo 0)"`)
    const screen = await pane.waitFor(/^helper-alive=\d+$/m, 'resilient to end', 30_000)
    // The prompt came back while the helper still ran, as it does for the plain tool.
    expect(screen).toMatch(/^status=0$/m)
    expect(screen).toMatch(/^helper-alive=0$/m)
    await pane.waitFor(/late-from-helper$/m, 'the helper\'s late line', 30_000)
    expect(tool.lines()).toEqual(['helper-done'])
  }, 60_000)
})

describe('outside a terminal', () => {
  it('stdout to a file: resilient ends with the tool, and what its helper writes later still reaches the file', async () => {
    const tool = standIn('pip', LEAVES_HELPER)
    const out = join(tool.dir, 'out.txt')
    const result = await bashBeside(tool, `resilient -q --no-mirrors pip install x > ${out} 2>&1; echo "status=$?"; echo "helper-alive=$(grep -c helper-done "$LOG" 2>/dev/null || echo 0)"`)
    expect(result.stdout).toBe('status=0\nhelper-alive=0')
    await waitFor(() => tool.lines().includes('helper-done'), 'the helper to end', 30_000)
    await waitFor(() => readFileSync(out, 'utf8').includes('late-from-helper'), 'the late line in the file', 5_000)
    expect(readFileSync(out, 'utf8')).toBe('tool-done\nlate-from-helper\n')
  }, 60_000)

  it('a stdin whose writer stays open: resilient ends with a tool that did not read it, while the writer still runs', async () => {
    const tool = standIn('pip', 'case "$1" in install) echo tool-done;; esac\n')
    linkLauncherBeside(tool)
    const writer = spawn('sleep', ['60'], { stdio: ['ignore', 'pipe', 'ignore'] })
    try {
      const run = spawn('resilient', ['-q', '--no-mirrors', 'pip', 'install', 'x'], { env: tool.env, stdio: [writer.stdout!, 'pipe', 'pipe'] })
      let stdout = ''
      run.stdout!.on('data', chunk => { stdout += chunk })
      const status = await new Promise(resolve => run.on('exit', resolve))
      expect(status).toBe(0)
      expect(stdout).toBe('tool-done\n')
      expect(alive(writer.pid!)).toBe(true)
    } finally {
      writer.kill()
    }
  }, 60_000)
})
