import { logsDirectory } from '../paths.js'
import { createRunLog, type RunReport } from './run-log.js'
import { writeRunLog } from './store.js'
import { RESILIENT_VERSION } from '../version.js'

export interface RecordRunInput {
  report: RunReport
  /** The tool's argv as typed (`['pip', 'install', 'torch']`). */
  invocation: string[]
  startedAt: Date
  cwd: string
  env: NodeJS.ProcessEnv
  keep: number
}

/**
 * Writes the run's log into the state directory. A log that cannot be written must never fail the install: the
 * reason is returned for a one-line warning instead.
 */
export async function recordRun(input: RecordRunInput): Promise<{ file?: string; error?: string }> {
  try {
    const log = createRunLog({ ...input, finishedAt: new Date(), resilientVersion: RESILIENT_VERSION })
    return { file: await writeRunLog(logsDirectory(input.env), log, input.keep) }
  } catch (error) {
    return { error: `could not write the run log to ${logsDirectory(input.env)}: ${(error as Error).message}` }
  }
}
