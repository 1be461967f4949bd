import { formatCommand } from '../tools/argv/format-command.js'
import type { ScriptOutput } from './final-error.js'
import type { HookOutcome } from './script-hooks.js'
import type { Choice, Detection, InstallPlan, MissingModule, Placement, ScriptEcosystem, Wanted } from './types.js'

/** The one call into resilient's tool runs (mirrors, retries, diagnosis): argv in `cwd`, its exit code. */
export type RunTool = (argv: string[], cwd?: string) => Promise<number>

/** One environment a script runs in: how its failure reads, what provides a module, how to install and check it. */
export interface Target {
  ecosystem: ScriptEcosystem
  /** The missing module the script's own final error names, a refusal, or undefined for any other ending. */
  failure(outcome: HookOutcome, output: ScriptOutput): Promise<Detection | undefined>
  /**
   * What provides `missing`, then every other import of the script that is missing (a static scan of `entry`, the
   * script file, and of the file whose import failed), each with its candidate and the project's declaration.
   */
  gather(missing: MissingModule, entry: string | undefined): Promise<Choice[]>
  place(): Promise<Placement>
  /** The single install command for every wanted package. */
  plan(wanted: Wanted[]): InstallPlan
  /** Name → version of what is installed where the script looks, or undefined when that cannot be read. */
  snapshot(): Promise<Record<string, string> | undefined>
  verify(wanted: Wanted): Promise<{ ok: boolean; detail?: string }>
  /** Removes exactly `added` (what this run installed; `requested`: the packages it asked for); what it ran. */
  rollback(added: string[], requested: string[]): Promise<{ ok: boolean; command?: string }>
  /** Python: from now on the script's interpreter is the virtual environment `dir` (created if it is not one). */
  useVirtualEnvironment?(dir: string): Promise<{ ok: true; python: string } | { ok: false; reason: string }>
}

export function installPlan(argv: string[], environment: string, cwd?: string, env?: Record<string, string>): InstallPlan {
  return { argv, command: formatCommand({ argv, env: env ?? {} }), environment, cwd, ...(env && { env }) }
}

/** First choice per package wins: a module named by the failure comes before the same package found by the scan. */
export function distinctPackages(choices: Choice[]): Choice[] {
  const seen = new Set<string>()
  return choices.filter(choice => {
    const key = choice.candidate.tier === 'refused' ? `module:${choice.module.name}` : `package:${choice.candidate.package.toLowerCase()}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
