import { describe, expect, it } from 'vitest'
import { bashBeside, standIn } from '../helpers/process-helpers.js'

// resilient's stdout and stderr are often a pipe it shares with other processes (`make -j`, `a & b` in a pipeline, a
// CI step's log). Node would mark that pipe non-blocking for everyone (src/cli/blocking-stdio.ts); a sibling writing
// a lot then sees EAGAIN, and Python drops the rest of its output without an error.

// Records the status flags of resilient's own stdout and stderr (its parent's descriptors), then waits 2 s.
const RECORD_PARENT_FLAGS = `echo "1 $(sed -n 's/^flags:[[:space:]]*//p' /proc/$PPID/fdinfo/1)" >> "$LOG"
echo "2 $(sed -n 's/^flags:[[:space:]]*//p' /proc/$PPID/fdinfo/2)" >> "$LOG"
sleep 2
echo tool-done`

const O_NONBLOCK = 0o4000

describe('the pipe resilient shares with other processes', () => {
  it.each(['install x', 'list'])('stays blocking while `pip %s` runs, stdout and stderr alike', async verb => {
    const tool = standIn('pip', RECORD_PARENT_FLAGS)
    const run = await bashBeside(tool, `resilient --no-mirrors pip ${verb} 2>&1 | cat`)
    expect(run.exitCode, run.stderr).toBe(0)
    const flags: Record<string, number> = Object.fromEntries(tool.lines().map(line => line.split(' ')).map(([fd, octal]) => [fd, Number.parseInt(octal!, 8)]))
    expect(Object.keys(flags)).toEqual(['1', '2'])
    for (const [fd, value] of Object.entries(flags)) expect(value & O_NONBLOCK, `fd ${fd}: ${value.toString(8)}`).toBe(0)
  }, 60_000)

  it('a sibling writing 10 MB into the same pipe while resilient runs loses nothing', async () => {
    const tool = standIn('pip', RECORD_PARENT_FLAGS)
    // The reader waits 1 s, so that the sibling fills the pipe and must wait for room, as a slow CI log would make it.
    const sibling = `python3 -c "import sys; sys.stdout.write('x' * 10**7); sys.stdout.flush()"`
    const line = (first: string) => `( ${first} & sleep 0.5; ${sibling}; echo "sibling=$?" >&2; wait ) | (sleep 1; wc -c)`
    const plain = await bashBeside(tool, line('pip install x'))
    const wrapped = await bashBeside(tool, line('resilient -q --no-mirrors pip install x'))
    expect(plain.stdout.trim()).toBe(String(10 ** 7 + 'tool-done\n'.length))
    expect(wrapped.stdout.trim(), wrapped.stderr).toBe(plain.stdout.trim())
    expect(wrapped.stderr).toContain('sibling=0')
  }, 60_000)
})
