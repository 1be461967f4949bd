import { accessSync, constants, existsSync } from 'node:fs'
import { dirname } from 'node:path'
import type { Config } from '../config/schema.js'
import { logsDirectory, stateDir } from '../paths.js'
import { readRunLogs } from '../logs/store.js'
import { readAutoInstalls, readMirrorHealth } from './state-hooks.js'
import type { Problem, Section } from './types.js'

/** The nearest existing directory on the way to `path`: whether it can be created is decided there. */
function nearestExisting(path: string): string {
  let dir = path
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir)
  return dir
}

/** The state directory (writable?), run logs, mirror health on this network, and packages `resilient run` installed. */
export async function checkState(env: NodeJS.ProcessEnv, config: Config | undefined): Promise<Section> {
  const problems: Problem[] = []
  const dir = stateDir(env)
  const exists = existsSync(dir)
  let writable = true
  try {
    accessSync(nearestExisting(dir), constants.W_OK)
  } catch {
    writable = false
    problems.push({ severity: 'broken', area: 'state', message: `The state directory ${dir} cannot be written: run logs and mirror health are lost.`, fix: `Make it writable (chown/chmod), or point RESILIENT_STATE_DIR at a writable directory.` })
  }
  const { logs } = readRunLogs(logsDirectory(env))
  const last = logs[0]?.log
  const health = await readMirrorHealth(env, config)
  const installs = await readAutoInstalls(env)
  const lines = [
    `${dir} (${exists ? 'exists' : 'not created yet'}, ${writable ? 'writable' : 'NOT writable'})`,
    `run logs: ${logs.length ? `${logs.length} in ${logsDirectory(env)}, the last ${last!.startedAt} (${last!.tool}, ${last!.outcome}) — resilient logs --last` : 'none yet'}`,
    health.lines.length ? 'mirror health on this network:' : `mirror health: ${health.note}`,
    ...health.lines.map(line => `  ${line}`),
    installs.lines.length ? 'auto-installed packages (newest first; review them):' : `auto-installed packages: ${installs.note}`,
    ...installs.lines.map(line => `  ${line}`),
  ]
  return { title: 'State', lines, data: { dir, exists, writable, logs: logs.length, mirrorHealth: health.lines, autoInstalled: installs.lines }, problems }
}
