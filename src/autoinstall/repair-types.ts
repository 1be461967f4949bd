import type { InterruptSignal } from '../exec/interrupts.js'
import type { Answer, Question } from './consent.js'
import type { ScriptOutput } from './final-error.js'
import type { HookOutcome } from './script-hooks.js'
import type { Target } from './target.js'
import type { Installable, InstallPlan } from './types.js'

// The vocabulary of `resilient run`'s repair (repair.ts): what one run of the script gives back, the settings, the
// world it acts on, and what it returns.

/** One run of the script, as the repair needs it. */
export interface ScriptRun {
  exitCode: number
  interrupted?: InterruptSignal
  spawnError?: string
  outcome: HookOutcome
  output: ScriptOutput
}

export interface AutoInstalled {
  module: string
  package: string
  version: string
  /** Where the project already declares it (`requirements.txt:3`), when it does. */
  declaredIn?: string
  tier: Installable['tier']
  consent: 'yes-flag' | 'prompt'
  environment: string
  command: string
}

export interface RepairSettings {
  autoInstall: boolean
  maxAutoInstalls: number
  yes: boolean
  interactive: boolean
  allowGlobal: boolean
  installOnly: boolean
  dryRun: boolean
  /** The script's command, and where in it the interpreter is named (a virtual environment's can replace it). */
  command: string[]
  interpreterAt?: number
  /** The script file the command runs, when one is named: the static scan starts there. */
  entry?: string
  cwd: string
}

/** Everything the repair does to the world, passed in: tests script it, `cli/commands/run.ts` wires the real thing. */
export interface RepairDeps {
  /** Undefined when resilient cannot tell the script's environment (`reason`, `hint` say why and what to do). */
  target: Target | undefined
  unknownEnvironment?: { reason: string; hint?: string }
  runScript(): Promise<ScriptRun>
  /** The one re-run after the install, from the start (the command may now name a new virtual environment). */
  rerunScript(command: string[]): Promise<ScriptRun>
  /** Why the re-run could not read the same input as the first run (src/exec/input/replayable-input.ts): then none is made. */
  cannotRunAgain?(): string | undefined
  /** The index the install will use first (and its mirrors), for the prompt. */
  describeIndex(plan: InstallPlan): string
  ask(lines: string[], question: Question): Promise<Answer | { interrupted: InterruptSignal }>
  /** --dry-run: shows the install command(s) as the install would run them, runs nothing. */
  preview(plan: InstallPlan): Promise<void>
  /** Runs the install through resilient's tool runs; the reason and exit code when it failed. */
  install(plan: InstallPlan): Promise<{ ok: true } | { ok: false; reason: string; exitCode: number }>
  record(installed: AutoInstalled): Promise<void>
  /** One line each. `hint`: what to do next, after a `warn`; `detail`: a line of the proposal, as it is. */
  say(message: string, level: 'note' | 'warn' | 'hint' | 'detail'): void
}

export interface RepairResult {
  exitCode: number
  runs: number
  autoInstalled: AutoInstalled[]
  /** Why the failure was left unrepaired, when it was. */
  stopReason?: string
  command: string[]
}
