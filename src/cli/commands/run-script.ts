import { Writable } from 'node:stream'
import type { ScriptRun } from '../../autoinstall/repair.js'
import type { ScriptHooks } from '../../autoinstall/script-hooks.js'
import type { Interrupts } from '../../exec/interrupts.js'
import { runChild } from '../../exec/run-child.js'
import { TailBuffer } from '../../exec/tail-buffer.js'
import { redactedChildStreams } from '../redacting-stream.js'

/** Passes the script's stderr on untouched and keeps its tail: without a hook, only stderr may name the failure. */
class StderrTail extends Writable {
  readonly tail = new TailBuffer(256 * 1024)

  constructor(private readonly target: NodeJS.WritableStream) {
    super()
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.tail.push(chunk)
    this.target.write(chunk, callback)
  }
}

export interface ScriptChild {
  env: NodeJS.ProcessEnv
  interrupts: Interrupts
  hooks: ScriptHooks
  pty: boolean
  warn(message: string): void
}

/** One run of the script with the caller's terminal or pipes, and the hook that reports how its process ended. */
export async function runScriptOnce(command: string[], { env, interrupts, hooks, pty, warn }: ScriptChild): Promise<ScriptRun> {
  const streams = redactedChildStreams(pty)
  // In a pseudo-terminal stdout and stderr are one stream: the whole output stands in for stderr there.
  const stderr = pty ? undefined : new StderrTail(streams.options.stderr ?? process.stderr)
  let pid: number | undefined
  const result = await runChild({ argv: command, env: {} }, {
    env: { ...env, ...hooks.env }, interrupts, pty, ...streams.options, ...(stderr && { stderr }), onSpawn: spawned => { pid = spawned },
  })
  streams.flush()
  if (result.spawnError) warn(`${command[0]} could not be started: ${result.spawnError}`)
  const output = { stderr: stderr ? stderr.tail.toString() : result.output, all: result.output }
  return { exitCode: result.exitCode, interrupted: result.interrupted, spawnError: result.spawnError, outcome: hooks.collect(pid), output }
}
