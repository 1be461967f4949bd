import { createRequire } from 'node:module'
import type { CommandLine } from '../tools/types.js'
import type { InterruptSignal } from './interrupts.js'
import { signalTree } from './process-tree.js'
import { exitCodeOf, type ChildResult, type RunChildOptions } from './run-child.js'
import type { PtyModule } from './pty-module.js'
import { TailBuffer } from './tail-buffer.js'

let cached: PtyModule | null | undefined

/** node-pty is an optional native dependency: when it is missing or fails to load, pipes are used instead. */
export async function loadPty(): Promise<PtyModule | null> {
  if (cached !== undefined) return cached
  try {
    cached = createRequire(import.meta.url)('node-pty') as PtyModule
  } catch {
    cached = null
  }
  return cached
}

/**
 * Runs the child in a pseudo-terminal so it keeps its progress bars and colours, while resilient reads the same
 * bytes for diagnosis. Keystrokes are forwarded raw; Ctrl-C reaches the child through the terminal driver.
 */
export async function runInPty(pty: PtyModule, command: CommandLine, options: RunChildOptions): Promise<ChildResult> {
  const started = Date.now()
  const tail = new TailBuffer(options.tailBytes ?? 256 * 1024)
  const [file, ...args] = command.argv
  const stdout = options.stdout ?? process.stdout
  let child: ReturnType<PtyModule['spawn']>
  try {
    child = pty.spawn(file!, args, {
      name: process.env.TERM || 'xterm-256color',
      cols: process.stdout.columns || 80,
      rows: process.stdout.rows || 24,
      cwd: options.cwd ?? process.cwd(),
      env: options.env as Record<string, string>,
    })
  } catch (error) {
    return { exitCode: 127, output: '', durationMs: Date.now() - started, spawnError: String((error as Error).message) }
  }
  let interrupted: InterruptSignal | undefined
  let abortedBecause: string | undefined
  let exited = false
  child.onData(data => {
    tail.push(data)
    stdout.write(data)
  })
  const stdin = process.stdin
  const wasRaw = stdin.isTTY ? stdin.isRaw : false
  const onKey = (data: Buffer) => {
    // Ctrl-C in raw mode arrives as a byte, not a signal: the child gets SIGINT from its terminal, we remember it.
    if (data.includes(0x03)) {
      interrupted ??= 'SIGINT'
      options.interrupts.received ??= 'SIGINT'
    }
    child.write(data.toString('utf8'))
  }
  if (stdin.isTTY) {
    stdin.setRawMode(true)
    stdin.on('data', onKey)
    stdin.resume()
  }
  const onResize = () => child.resize(process.stdout.columns || 80, process.stdout.rows || 24)
  process.stdout.on('resize', onResize)
  const onInterrupt = (signal: InterruptSignal) => {
    interrupted ??= signal
    signalTree(child.pid, signal)
  }
  options.interrupts.on('signal', onInterrupt)
  const onAbort = () => {
    abortedBecause = String(options.abort?.reason ?? 'aborted')
    signalTree(child.pid, 'SIGTERM')
    setTimeout(() => !exited && signalTree(child.pid, 'SIGKILL'), options.killGraceMs ?? 1000).unref()
  }
  options.abort?.addEventListener('abort', onAbort, { once: true })
  options.onSpawn?.(child.pid)

  const { exitCode, signal } = await new Promise<{ exitCode: number; signal?: number }>(resolve => child.onExit(resolve))
  exited = true
  options.interrupts.off('signal', onInterrupt)
  options.abort?.removeEventListener('abort', onAbort)
  process.stdout.off('resize', onResize)
  if (stdin.isTTY) {
    stdin.off('data', onKey)
    stdin.setRawMode(wasRaw)
    stdin.pause()
  }
  const signalName = signal ? (Object.entries((await import('node:os')).constants.signals).find(([, n]) => n === signal)?.[0]) : undefined
  return {
    exitCode: signal ? exitCodeOf(null, signalName) : exitCode,
    output: tail.toString(),
    durationMs: Date.now() - started,
    interrupted: interrupted ?? options.interrupts.received,
    abortedBecause,
  }
}
