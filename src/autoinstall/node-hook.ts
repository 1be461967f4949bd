// How `resilient run` learns that the script's own Node process ended on an uncaught module-not-found error,
// instead of reading text that a console.log or a subprocess could have written.
//
// A CommonJS file preloaded with `--require` through NODE_OPTIONS (kept after the user's own options). It listens on
// 'uncaughtExceptionMonitor', which Node emits just before an uncaught exception (or a rejection raised as one)
// ends the process, without changing what happens next (Node's docs, process events). It writes `<pid>.json` only
// when nothing handles the error: with an 'uncaughtException' listener the script decides, and has handled it.
// Launchers (npx, tsx, npm: a main file under node_modules) keep the hook for the process they start; the first
// process that is not one is the script: it puts NODE_OPTIONS and resilient's variables back as the user had them,
// so its own subprocesses never load the hook.

export const NODE_HOOK_VARIABLES = { dir: 'RESILIENT_RUN_HOOK', nodeOptions: 'RESILIENT_RUN_NODE_OPTIONS' } as const

export const NODE_HOOK_SOURCE = `'use strict'
// Written by resilient run in its private directory; see docs/run.md ("Which failures count").
;(function resilientHook() {
  const fs = require('fs')
  const path = require('path')
  const dir = process.env.${NODE_HOOK_VARIABLES.dir}
  if (!dir) return
  const original = process.env.${NODE_HOOK_VARIABLES.nodeOptions}
  const isLauncher = () => {
    const main = process.argv[1]
    if (!main) return false
    let real = main
    try { real = fs.realpathSync(main) } catch (error) {}
    return /[\\\\/]node_modules[\\\\/]/.test(real)
  }
  if (!isLauncher()) {
    delete process.env.${NODE_HOOK_VARIABLES.dir}
    delete process.env.${NODE_HOOK_VARIABLES.nodeOptions}
    if (original === undefined) delete process.env.NODE_OPTIONS
    else process.env.NODE_OPTIONS = original
  }
  try { fs.writeFileSync(path.join(dir, process.pid + '.started'), '') } catch (error) { return }
  process.on('uncaughtExceptionMonitor', (error, origin) => {
    if (isLauncher()) return
    if (origin === 'uncaughtException' && process.listenerCount('uncaughtException') > 0) return
    const report = {
      pid: process.pid,
      origin,
      code: error && typeof error === 'object' ? String(error.code || '') : '',
      message: error && typeof error === 'object' ? String(error.message) : String(error),
    }
    try { fs.writeFileSync(path.join(dir, process.pid + '.json'), JSON.stringify(report)) } catch (error) {}
  })
})()
`

/** NODE_OPTIONS quoting: Node splits the value like a shell, with double quotes and backslash escapes. */
function quoted(path: string): string {
  return `"${path.replace(/[\\"]/g, match => `\\${match}`)}"`
}

/** The variables that preload `hookFile` into the script's Node, after the user's own NODE_OPTIONS. */
export function nodeHookEnv(dir: string, hookFile: string, env: NodeJS.ProcessEnv): Record<string, string> {
  const original = env.NODE_OPTIONS
  const preload = `--require ${quoted(hookFile)}`
  return {
    NODE_OPTIONS: original ? `${original} ${preload}` : preload,
    [NODE_HOOK_VARIABLES.dir]: dir,
    ...(original === undefined ? {} : { [NODE_HOOK_VARIABLES.nodeOptions]: original }),
  }
}
