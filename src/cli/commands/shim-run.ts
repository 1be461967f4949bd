import { ToolNotFoundError } from '../../errors.js'
import { pathWithoutShims } from '../../shims/shim-dir.js'
import { isKnownExecutable } from '../../shims/tool-names.js'
import { which } from '../../tools/argv/which.js'
import type { ExitStatus } from '../../run/signal-router.js'
import { runUnwrapped } from '../../run/run-unwrapped.js'

// What every shim starts for a call that may talk to an index (the shim runs read-only calls itself): kept apart from
// `shim install`, whose code a tool run does not need to load.

/**
 * `resilient shim run <name> [args...]`, what every shim execs: the real tool is looked up on PATH without the
 * shim directories, and the child sees that PATH too, so nothing it starts comes back through a shim.
 */
export async function runShim(name: string, args: string[]): Promise<ExitStatus> {
  const env = { ...process.env, PATH: pathWithoutShims(process.env.PATH, name) }
  if (!isKnownExecutable(name)) {
    if (!which(name, env)) throw new ToolNotFoundError(name, [])
    return runUnwrapped([name, ...args], env)
  }
  return (await import('./tool-command.js')).toolCommand([name, ...args], {}, env)
}
