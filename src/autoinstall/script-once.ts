import type { ScriptRun } from './repair.js'
import type { ScriptHooks } from './script-hooks.js'
import type { Interrupts } from '../exec/interrupts.js'
import type { ReplayableInput } from '../exec/input/replayable-input.js'
import { runChild } from '../exec/run-child.js'

export interface ScriptChild {
  env: NodeJS.ProcessEnv
  interrupts: Interrupts
  hooks: ScriptHooks
  pty: boolean
  /** The script's stdin, the same for both runs (src/exec/input/replayable-input.ts). */
  input: ReplayableInput
  warn(message: string): void
}

/** One run of the script with the caller's terminal or pipes, and the hook that reports how its process ended. */
export async function runScriptOnce(command: string[], { env, interrupts, hooks, pty, input, warn }: ScriptChild): Promise<ScriptRun> {
  let pid: number | undefined
  const result = await runChild({ argv: command, env: {} }, { env: { ...env, ...hooks.env }, interrupts, pty, input, onSpawn: spawned => { pid = spawned } })
  if (result.spawnError) warn(`${command[0]} could not be started: ${result.spawnError}`)
  // Without a hook, only stderr may name the failure; where stdout and stderr are one stream (a terminal, `2>&1`),
  // the whole output stands in for it.
  const output = { stderr: result.errorOutput ?? result.output, all: result.output }
  return { exitCode: result.exitCode, interrupted: result.interrupted, spawnError: result.spawnError, outcome: hooks.collect(pid), output }
}
