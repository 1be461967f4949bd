import { Interrupts } from '../exec/interrupts.js'
import { runChild } from '../exec/run-child.js'
import { routeSignalsTo, type ExitStatus } from './signal-router.js'

/** Runs a program resilient does not wrap exactly as the shell would: same descriptors, signals and status. */
export async function runUnwrapped(argv: string[], env: NodeJS.ProcessEnv): Promise<ExitStatus> {
  const interrupts = new Interrupts()
  const stopRouting = routeSignalsTo(interrupts)
  try {
    const result = await runChild({ argv, env: {} }, { env, interrupts, pty: false, capture: false })
    if (result.spawnError) process.stderr.write(`resilient shim: ${result.spawnError}\n`)
    return { code: result.exitCode, signal: result.signal }
  } finally {
    stopRouting()
  }
}
