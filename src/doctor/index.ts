import { homedir } from 'node:os'
import { pathWithoutShims } from '../shims/shim-dir.js'
import { checkConfig } from './config.js'
import { checkProxy } from './proxy.js'
import { checkShims } from './shims.js'
import { checkState } from './state.js'
import { checkTerminal } from './terminal.js'
import { checkToolSettings } from './tool-settings.js'
import { checkTools } from './tools.js'
import type { Problem, Section } from './types.js'

export interface DoctorReport {
  sections: Section[]
  problems: Problem[]
  /** Any problem that stops resilient or a tool from working as configured. */
  broken: boolean
}

/** Everything `resilient doctor` looks at, read from the env and directory passed in. */
export async function runDoctorChecks(env: NodeJS.ProcessEnv, cwd: string): Promise<DoctorReport> {
  const { section: config, config: loaded } = await checkConfig(cwd, env)
  // Real tools are looked up as a shim does: without resilient's shim directories on PATH.
  const realEnv = { ...env, PATH: pathWithoutShims(env.PATH) }
  const [tools, state] = await Promise.all([
    checkTools({ env: realEnv, cwd, home: env.HOME || homedir() }, loaded),
    checkState(env, loaded),
  ])
  const sections = [tools, checkToolSettings(env), checkProxy(env), config, checkShims(env), checkTerminal(), state]
  const problems = sections.flatMap(section => section.problems)
  return { sections, problems, broken: problems.some(problem => problem.severity === 'broken') }
}
