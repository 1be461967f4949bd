import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { describe, expect, it } from 'vitest'
import { judgeProgramAttempt, untilProgramStarts, watchProgramStart } from '../../../src/exec/program-start.js'
import type { ProgramRun } from '../../../src/tools/types.js'
import { existsSync } from 'node:fs'
import { describeNeeding, procFs } from '../../helpers/requirements.js'

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))
const npmLike: ProgramRun = { runs: () => true, fetchFailed: output => /^npm error/m.test(output.trim().split('\n').at(-1) ?? '') }
const judge = (output: string, started: boolean | undefined, stopped = false) => judgeProgramAttempt(npmLike, { args: [], output, started, stopped, tool: 'npx' })

describeNeeding(procFs(existsSync('/proc/self/stat')), 'watchProgramStart (real processes, /proc)', () => {
  it('sees no program while the tool works alone, then the child it starts', async () => {
    // A "tool" that works for 1.5 s in its own process (far longer than the look at 150 ms, even on a loaded
    // machine), then starts a program.
    const tool = spawn(process.execPath, ['-e', 'const t = Date.now(); while (Date.now() - t < 1500); require("child_process").spawnSync("sleep", ["0.3"])'])
    const watch = watchProgramStart(tool.pid!, { intervalMs: 10 })
    await sleep(150)
    expect(watch.seen()).toBe(false)
    await once(tool, 'exit')
    expect(watch.seen()).toBe(true)
  })

  it('sees a program that already ended, by the CPU time the tool reaped', async () => {
    const tool = spawn('sh', ['-c', `${process.execPath} -e 0; sleep 0.3`])
    const watch = watchProgramStart(tool.pid!, { intervalMs: 10_000 })
    await sleep(200)
    expect(watch.seen()).toBe(true)
    await once(tool, 'exit')
  })

  it('counts a child that is still the tool fetching (ownStep) as no program', async () => {
    // The step outlives the look by far even on a loaded machine: an ended child is a zombie with no argv, which
    // cannot be told apart from a program that ran.
    const tool = spawn('sh', ['-c', 'sleep 5; true'], { detached: true })
    const watch = watchProgramStart(tool.pid!, { intervalMs: 10, ownStep: argv => argv[0] === 'sleep' })
    await sleep(150)
    expect(watch.seen()).toBe(false)
    watch.stop()
    process.kill(-tool.pid!, 'SIGTERM')
    await once(tool, 'exit')
  })

  it('counts an own step that ended, a zombie until the tool reaps it, as no program', async () => {
    // The tool kills its step and waits 1 s before reaping it (bun x does the first when stopped; a loaded machine
    // gives the second): every look in between sees a zombie without argv, which was seen alive as the tool's own.
    const tool = spawn('python3', ['-c', 'import os, signal, subprocess, time\np = subprocess.Popen(["sleep", "30"])\ntime.sleep(0.5)\nos.kill(p.pid, signal.SIGTERM)\ntime.sleep(1)\np.wait()\ntime.sleep(0.3)'])
    const watch = watchProgramStart(tool.pid!, { intervalMs: 10, ownStep: argv => argv[0] === 'sleep' })
    await sleep(1200)
    expect(watch.seen()).toBe(false)
    watch.stop()
    await once(tool, 'exit')
  })

  it('keeps the answer it gave when resilient stops the tool (settle), whatever the dying tree does next', async () => {
    // Works alone for 0.4 s (no child), then starts one.
    const tool = spawn(process.execPath, ['-e', 'const t = Date.now(); while (Date.now() - t < 400); require("child_process").spawnSync("sleep", ["5"])'])
    const watch = watchProgramStart(tool.pid!, { intervalMs: 10 })
    expect(watch.settle()).toBe(false)
    await sleep(800)
    // sh has started a child by now (unknown to ownStep: a program, had the watch still looked).
    expect(watch.seen()).toBe(false)
    tool.kill('SIGKILL')
    await once(tool, 'exit')
  })
})

describe('judgeProgramAttempt', () => {
  it('retries only a fetch that failed before any program started', () => {
    expect(judge('npm error code E503\nnpm error A complete log ...', false)).toEqual({ programRan: false, refusal: undefined })
    expect(judge('', false, true)).toEqual({ programRan: false, refusal: undefined })
  })
  it('never the program: once it started, whatever its output says', () => {
    expect(judge('npm error code ECONNRESET', true)).toEqual({ programRan: true, refusal: expect.stringMatching(/npx had started the program/) })
    expect(judge('', true, true)).toMatchObject({ programRan: true })
  })
  it('without the tool\'s own fetch error last, the failure is the program\'s', () => {
    expect(judge('npm error code E503\nfailed: connect ECONNREFUSED', false)).toEqual({ programRan: true, refusal: expect.stringMatching(/does not end in its own fetch error/) })
  })
  it('where /proc cannot be read, never retries', () => {
    expect(judge('npm error code E503', undefined)).toEqual({ programRan: false, refusal: expect.stringMatching(/no \/proc/) })
  })
  it('never when the tool says the program runs in its own process', () => {
    const inProcess = { ...npmLike, neverRetried: () => 'in-process' }
    expect(judgeProgramAttempt(inProcess, { args: [], output: 'npm error x', started: false, stopped: false, tool: 'bunx' }).refusal).toBe('in-process')
  })
})

describe('untilProgramStarts', () => {
  it('passes a stop on while no program runs, and never after', () => {
    let started = false
    const first = new AbortController()
    const gated = untilProgramStarts(first.signal, () => started)!
    first.abort('stall')
    expect(gated.aborted).toBe(true)
    const second = new AbortController()
    const late = untilProgramStarts(second.signal, () => started)!
    started = true
    second.abort('stall')
    expect(late.aborted).toBe(false)
  })
})
