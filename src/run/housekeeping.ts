import { preloadFileWriters } from '../files/locked-file.js'
import { createPrivateDir, sweepPrivateDirs, type PrivateDir } from '../files/private-files.js'

/** A fresh private directory for this run, removed at exit (directories a killed run left: whileToolRuns). */
export function privateDirForRun(): PrivateDir {
  const dir = createPrivateDir()
  process.once('exit', () => dir.remove())
  return dir
}

/**
 * Work that need not delay the tool, done once it runs and resilient only waits: sweeping the run directories a
 * killed run left (a listing of the temporary directory, which may hold thousands of entries) and loading what
 * writes mirror health and the run log afterwards.
 */
export function whileToolRuns(): { started(): void; ended(): void } {
  let swept = false
  const sweep = () => {
    if (!swept) sweepPrivateDirs()
    swept = true
  }
  return {
    started: () => setImmediate(() => {
      sweep()
      preloadFileWriters()
    }),
    // No tool ran (a dry run, a tool not found): the sweep is done now.
    ended: sweep,
  }
}
