import { spawn, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { forwardOutput, type ForwardOptions } from '../../../src/exec/output/forward-output.js'
import { OutputOrder, type RelayedStream } from '../../../src/exec/output/output-order.js'
import { closeAll, openRealPipes, type RealPipe } from '../../../src/exec/output/real-pipe.js'
import { TailBuffer } from '../../../src/diagnose/tail-buffer.js'

// The copy of a tool's output through real pipes, as run-child makes them: large streams go to a relay thread
// (src/exec/output/pipe-thread.ts) and come back to the event loop when the tool goes quiet. Each case compares the bytes
// that came out with those that went in.

const TAIL_BYTES = 256 * 1024
const dir = mkdtempSync(join(tmpdir(), 'resilient-forward-'))
// The test files (~50 MB) go with the file's tests.
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const made = new Map<string, { path: string; text: Buffer }>()

/**
 * A text file of about `megabytes` MB (ASCII, so that a tail read as UTF-8 is byte for byte the same), made once per
 * name. 16 MB is 16 times the rate at which a stream goes to a relay thread (HAND_OVER_BYTES a second): enough for it to
 * take over, where 64 MB made this file the suite's slowest unit file (110 s under load) for no other case.
 */
function textFile(name: string, megabytes: number): { path: string; text: Buffer } {
  const known = made.get(name)
  if (known) return known
  const path = join(dir, name)
  const line = (i: number) => `line ${i} ${createHash('sha256').update(String(i)).digest('hex')}\n`
  const lines: string[] = []
  for (let i = 0, size = 0; size < megabytes * 2 ** 20; i++) size += (lines[i] = line(i)).length
  writeFileSync(path, lines.join(''))
  const file = { path, text: readFileSync(path) }
  made.set(name, file)
  return file
}

/** The tool: `sh -c script` with the pipes' child ends as its stdout (and stderr); resilient's copies are closed. */
function tool(script: string, stdout: RealPipe, stderr?: RealPipe): ChildProcess {
  const child = spawn('sh', ['-c', script], { stdio: ['ignore', stdout.child, stderr?.child ?? 'ignore'] })
  closeAll([stdout.child, ...(stderr ? [stderr.child] : [])])
  return child
}

/** What the caller's reader received on a pipe: its sha256 and size, read until every writer is gone. */
function received(pipe: RealPipe, stopAfterBytes = Infinity): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256')
  let bytes = 0
  const socket = new Socket({ fd: pipe.ours, readable: true, writable: false })
  return new Promise(resolve => {
    const done = () => resolve({ sha256: hash.digest('hex'), bytes })
    socket.on('data', (chunk: Buffer) => {
      hash.update(chunk)
      bytes += chunk.length
      if (bytes >= stopAfterBytes) socket.destroy()
    })
    socket.on('close', done)
  })
}

/** forwardOutput as child-stdio calls it, with a relay thread allowed; counts the hand-overs and keeps the tail. */
function forward(source: RealPipe, target: RealPipe, order: OutputOrder, fromStderr = false) {
  let handOvers = 0
  const relay: ForwardOptions['relay'] = { tailBytes: TAIL_BYTES, watch: (stream: RelayedStream) => (handOvers++, order.watch(stream, fromStderr)) }
  const ended = forwardOutput(source.ours, target.child, { onChunk: chunk => order.read(chunk, fromStderr), relay }).then(how => {
    closeAll([target.child])
    return how
  })
  return { ended, handOvers: () => handOvers }
}

const sha256Of = (data: Buffer) => createHash('sha256').update(data).digest('hex')
const lastBytes = (data: Buffer) => data.subarray(data.length - TAIL_BYTES).toString()

describe('forwardOutput with a relay thread', () => {
  it('passes 16 MB on byte for byte through the relay thread, and keeps the exact tail', async () => {
    const input = textFile('16m', 16)
    const [source, target] = openRealPipes(['from-child', 'from-child']) as [RealPipe, RealPipe]
    const tail = new TailBuffer(TAIL_BYTES)
    const forwarding = forward(source, target, new OutputOrder(chunk => tail.push(chunk)))
    const out = received(target)
    tool(`cat ${input.path}`, source)
    expect(await forwarding.ended).toBe('end')
    expect(await out).toEqual({ sha256: sha256Of(input.text), bytes: input.text.length })
    expect(forwarding.handOvers()).toBeGreaterThanOrEqual(1)
    expect(tail.toString()).toBe(lastBytes(input.text))
  }, 60_000)

  it('hands back when the tool goes quiet, and over again on its next burst: same bytes, same tail', async () => {
    const first = textFile('burst-1', 8)
    const second = textFile('burst-2', 8)
    const [source, target] = openRealPipes(['from-child', 'from-child']) as [RealPipe, RealPipe]
    const tail = new TailBuffer(TAIL_BYTES)
    const forwarding = forward(source, target, new OutputOrder(chunk => tail.push(chunk)))
    const out = received(target)
    tool(`cat ${first.path}; sleep 0.3; printf 'quiet line\\n'; sleep 0.3; cat ${second.path}`, source)
    expect(await forwarding.ended).toBe('end')
    const all = Buffer.concat([first.text, Buffer.from('quiet line\n'), second.text])
    expect(await out).toEqual({ sha256: sha256Of(all), bytes: all.length })
    expect(forwarding.handOvers()).toBe(2)
    expect(tail.toString()).toBe(lastBytes(all))
  }, 60_000)

  it('leaves a slow output to the event loop, however long it goes on (1.5 MB at 0.75 MB a second)', async () => {
    const [source, target] = openRealPipes(['from-child', 'from-child']) as [RealPipe, RealPipe]
    const tail = new TailBuffer(TAIL_BYTES)
    const forwarding = forward(source, target, new OutputOrder(chunk => tail.push(chunk)))
    const out = received(target)
    tool('for i in 1 2 3 4 5; do head -c 300000 /dev/zero; sleep 0.4; done', source)
    expect(await forwarding.ended).toBe('end')
    expect((await out).bytes).toBe(1_500_000)
    expect(forwarding.handOvers()).toBe(0)
  }, 30_000)

  it.each([
    ['stdout relayed by a thread, then an error on stderr', (big: string) => `cat ${big}; echo 'ERROR: the real error' >&2`, [1, 0]],
    ['stdout and stderr relayed by two threads at once, then a last line on stdout', (big: string) => `cat ${big} & cat ${big} >&2; wait; echo 'ERROR: the real error'`, [1, 1]],
  ])('keeps the order of the two streams: %s', async (_, script, threads) => {
    // Large enough that the thread takes over (and the tail given back is the thread's).
    const input = textFile('before-error', 16)
    const [out, err, outTarget, errTarget] = openRealPipes(['from-child', 'from-child', 'from-child', 'from-child']) as RealPipe[] as [RealPipe, RealPipe, RealPipe, RealPipe]
    const both = new TailBuffer(TAIL_BYTES)
    const order = new OutputOrder(chunk => both.push(chunk))
    const forwardings = [forward(out, outTarget, order), forward(err, errTarget, order, true)]
    const reads = [received(outTarget), received(errTarget)]
    tool(script(input.path), out, err)
    expect(await Promise.all(forwardings.map(forwarding => forwarding.ended))).toEqual(['end', 'end'])
    await Promise.all(reads)
    expect(forwardings.map(forwarding => Math.min(forwarding.handOvers(), 1))).toEqual(threads)
    // In the order read: what the other stream's pipe still held when the error was read (at most a pipe's 64 KiB)
    // may come after it, as when the event loop reads both, and so may one read of the other thread's that returned
    // just before the error's but took its place in the order just after (measured: 25 bytes over 64 KiB, once in
    // about fifteen runs). A tail given in the wrong order puts 256 KiB after it; either way the error is in the tail.
    const text = both.toString()
    const error = text.lastIndexOf('ERROR: the real error\n')
    expect(error).toBeGreaterThan(0)
    expect(text.length - error - 'ERROR: the real error\n'.length).toBeLessThanOrEqual(128 * 1024)
  }, 60_000)

  it('stops when the reader goes away (EPIPE), and the tool meets the broken pipe as it would without resilient', async () => {
    const [source, target] = openRealPipes(['from-child', 'from-child']) as [RealPipe, RealPipe]
    const forwarding = forward(source, target, new OutputOrder(() => {}))
    const child = tool('exec yes "a line of output"', source)
    const exited = new Promise(resolve => child.on('exit', (code, signal) => resolve(signal ?? code)))
    // The reader takes 32 MB (long after the hand-over at 1 MB), then closes its end.
    await received(target, 32 * 2 ** 20)
    expect(await forwarding.ended).toBe('broken-pipe')
    expect(forwarding.handOvers()).toBe(1)
    expect(await exited).toBe('SIGPIPE')
  }, 60_000)

  it.each([['exits of itself', ''], ['calls process.exit()', 'process.exit(7)']])('lets a process with a parked relay thread end: it %s', async (_, ending) => {
    const script = join(dir, `parked-${ending ? 'exit' : 'natural'}.ts`)
    const source = fileURLToPath(new URL('../../../src/exec/output/', import.meta.url))
    writeFileSync(script, `
import { spawn } from 'node:child_process'
import { forwardOutput } from '${source}forward-output.ts'
import { closeAll, openRealPipes } from '${source}real-pipe.ts'
const [pipe, target] = openRealPipes(['from-child', 'from-child'])
let handedOver = false
const ended = forwardOutput(pipe.ours, target.child, { onChunk: () => {}, relay: { tailBytes: 1024, watch: () => (handedOver = true, () => {}) } })
// The tool prints 4 MB (the thread takes over), then stays quiet: it hands back and parks.
spawn('sh', ['-c', 'head -c 4194304 /dev/zero; sleep 1'], { stdio: ['ignore', pipe.child, 'ignore'] })
closeAll([pipe.child])
const sink = spawn('cat', { stdio: [target.ours, 'ignore', 'ignore'] })
closeAll([target.ours])
setTimeout(() => {
  console.log(handedOver ? 'handed over' : 'never handed over')
  ${ending}
}, 600)
void ended.then(how => { closeAll([target.child]); console.log(how) })
`)
    // tsx (a dev dependency) runs the TypeScript sources, resolved from the repository's root.
    const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: fileURLToPath(new URL('../../..', import.meta.url)), stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', chunk => { output += chunk })
    child.stderr.on('data', chunk => { output += chunk })
    const status = await new Promise(resolve => {
      const timer = setTimeout(() => { child.kill('SIGKILL'); resolve('hung') }, 20_000)
      child.on('exit', code => { clearTimeout(timer); resolve(code) })
    })
    expect(status, output).toBe(ending ? 7 : 0)
    expect(output).toContain('handed over\n')
    if (!ending) expect(output).toContain('end\n')
  }, 30_000)
})
