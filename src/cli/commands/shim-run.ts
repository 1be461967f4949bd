import { ToolNotFoundError } from '../../errors.js'
import { Interrupts } from '../../exec/interrupts.js'
import { runChild } from '../../exec/run-child.js'
import { pathWithoutShims } from '../../shims/shim-dir.js'
import { isKnownExecutable } from '../../shims/tool-names.js'
import { which } from '../../tools/which.js'
import { routeSignalsTo, type ExitStatus } from '../signal-router.js'

// What every shim starts for a call that may talk to an index (the shim runs read-only calls itself): kept apart from
// `shim install`, whose code a tool run does not need to load.

/** Runs a program resilient does not wrap exactly as the shell would: same descriptors, signals and status. */
async function runDirectly(name: string, args: string[]): Promise<ExitStatus> {
  const interrupts = new Interrupts()
  const stopRouting = routeSignalsTo(interrupts)
  try {
    const result = await runChild({ argv: [name, ...args], env: {} }, { env: process.env, interrupts, pty: false, capture: false })
    if (result.spawnError) process.stderr.write(`resilient shim: ${result.spawnError}\n`)
    return { code: result.exitCode, signal: result.signal }
  } finally {
    stopRouting()
  }
}

/**
 * `resilient shim run <name> [args...]`, what every shim execs: the real tool is looked up on PATH without the
 * shim directories, and the child sees that PATH too, so nothing it starts comes back through a shim.
 */
export async function runShim(name: string, args: string[]): Promise<ExitStatus> {
  process.env.PATH = pathWithoutShims(process.env.PATH, name)
  if (!isKnownExecutable(name)) {
    if (!which(name, process.env)) throw new ToolNotFoundError(name, [])
    return runDirectly(name, args)
  }
  const { runTool } = await import('./run-tool.js')
  let signal: NodeJS.Signals | undefined
  const code = await runTool([name, ...args], {}, { onResult: (_tool, result) => { signal = result.signal } })
  return { code, signal }
}
