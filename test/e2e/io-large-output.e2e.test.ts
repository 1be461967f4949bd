import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { bashBeside, LAUNCHER, standIn, type StandIn } from '../helpers/process-helpers.js'

// A network verb's output is read by resilient (for the diagnosis) and passed on; past a megabyte a relay thread
// copies it (src/exec/output/pipe-thread.ts). What the caller receives, and how the tool ends, are compared with the plain
// tool run the same way, for outputs of ~200 MB: through a pipe, into a reader that leaves early, into a file.

// ~214 MB, each line different: a byte lost, doubled or out of order changes the checksum.
const SEQ = 'seq 25000000'

// Prints until its reader goes away, then exits 1 the way pip does (Python ignores SIGPIPE and raises BrokenPipeError).
const PYTHON_EPIPE = `#!/usr/bin/env python3
import os, sys
try:
    i = 0
    while True:
        sys.stdout.write("package-%09d 1.0.0 %s\\n" % (i, "x" * 76))
        i += 1
except BrokenPipeError:
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(1)
`

describe('a large output through resilient', () => {
  it.each([
    // On stderr, a tool that succeeds: a failure would add resilient's own message to the bytes read.
    ['stdout', `${SEQ}\nexit 3\n`, '2>/dev/null', 3],
    ['stderr', `${SEQ} >&2\n`, '2>&1 >/dev/null', 0],
  ])('~200 MB on %s reaches the reader byte for byte, and the exit status is the tool\'s', async (_, script, redirect, status) => {
    const tool = standIn('pip', script)
    const plain = await bashBeside(tool, `pip download x ${redirect} | sha256sum; echo "status=\${PIPESTATUS[0]}"`, 90_000)
    expect(plain.stdout).toMatch(new RegExp(`^[0-9a-f]{64} {2}-\nstatus=${status}$`))
    const wrapped = await bashBeside(tool, `resilient -q --no-mirrors --max-attempts 1 pip download x ${redirect} | sha256sum; echo "status=\${PIPESTATUS[0]}"`, 90_000)
    expect(wrapped.stdout, wrapped.stderr).toBe(plain.stdout)
  }, 120_000)

  it.each([
    ['a tool that exits 1 on EPIPE', PYTHON_EPIPE, 1],
    ['a tool killed by SIGPIPE', 'exec yes "package 1.0.0"\n', 141],
  ])('into a reader that leaves early (`| head -c 100`, and after 20 MB): %s ends as the plain tool does', async (_, script, status) => {
    const tool = standIn('pip', script)
    // 100 bytes: the reader is gone before the relay thread starts; 20 MB: it goes while the thread relays.
    for (const bytes of [100, 20_000_000]) {
      const line = `pip download x | head -c ${bytes} | sha256sum; echo "status=\${PIPESTATUS[0]}"`
      const plain = await bashBeside(tool, line, 90_000)
      expect(plain.stdout.split('\n').at(-1)).toBe(`status=${status}`)
      const wrapped = await bashBeside(tool, `resilient -q --no-mirrors ${line}`, 90_000)
      expect(wrapped.stdout, wrapped.stderr).toBe(plain.stdout)
      expect(wrapped.stderr).not.toMatch(/attempt 1 failed|gave up|retry/i)
    }
  }, 120_000)

  it('into a regular file (`>out 2>err`), what is written is the plain tool\'s', async () => {
    const tool = standIn('pip', `${SEQ}\nseq 3000000 >&2\n`)
    // Four files of ~230 MB: removed however the test ends.
    const dir = mkdtempSync(join(tmpdir(), 'resilient-large-'))
    try {
      await bashBeside(tool, `pip download x > ${dir}/plain-out 2> ${dir}/plain-err`, 90_000)
      const wrapped = await bashBeside(tool, `resilient -q --no-mirrors pip download x > ${dir}/out 2> ${dir}/err; echo "status=$?"`, 90_000)
      expect(wrapped.stdout, wrapped.stderr).toBe('status=0')
      const sha256 = (name: string) => createHash('sha256').update(readFileSync(join(dir, name))).digest('hex')
      expect(sha256('out')).toBe(sha256('plain-out'))
      expect(sha256('err')).toBe(sha256('plain-err'))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)

  it('a relay thread reads a large output, and the event loop a small one', async () => {
    const large = await bytesReadPerThread(standIn('pip', `${SEQ}\n`))
    // Each thread's read(2) bytes (/proc/<pid>/task/<tid>/io): resilient's main thread took the first megabyte or so.
    expect(large.main, JSON.stringify(large)).toBeLessThan(50 * 2 ** 20)
    expect(large.mostByAnother, JSON.stringify(large)).toBeGreaterThan(150 * 2 ** 20)
    const small = await bytesReadPerThread(standIn('pip', 'head -c 900000 /dev/zero\n'))
    expect(small.main, JSON.stringify(small)).toBeGreaterThan(900000)
    expect(small.mostByAnother, JSON.stringify(small)).toBeLessThan(900000)
  }, 120_000)
})

/** Bytes read by resilient's main thread and by its busiest other thread while running `pip download x > /dev/null`. */
async function bytesReadPerThread(tool: StandIn): Promise<{ main: number; mostByAnother: number }> {
  const child = spawn(LAUNCHER, ['-q', '--no-mirrors', 'pip', 'download', 'x'], { env: tool.env, stdio: ['ignore', 'ignore', 'ignore'] })
  const read = new Map<string, number>()
  const sample = () => {
    try {
      for (const task of readdirSync(`/proc/${child.pid}/task`)) {
        read.set(task, Number(/rchar:\s*(\d+)/.exec(readFileSync(`/proc/${child.pid}/task/${task}/io`, 'utf8'))?.[1] ?? 0))
      }
    } catch {
      // the process or one of its threads ended
    }
  }
  const sampler = setInterval(sample, 5)
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
  await new Promise(resolve => child.on('exit', resolve))
  clearInterval(sampler)
  clearTimeout(timer)
  const others = [...read].filter(([task]) => task !== String(child.pid)).map(([, bytes]) => bytes)
  return { main: read.get(String(child.pid)) ?? 0, mostByAnother: Math.max(0, ...others) }
}
