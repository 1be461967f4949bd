import { writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { isCI } from 'ci-info'
import { describeInstallIndex } from '../../autoinstall/install-index.js'
import { nodeTarget } from '../../autoinstall/node-target.js'
import { pythonTarget } from '../../autoinstall/python-target.js'
import { appendAutoInstallRecord } from '../../autoinstall/record.js'
import { repairScript, type RepairDeps } from '../../autoinstall/repair.js'
import { prepareScriptHooks } from '../../autoinstall/script-hooks.js'
import { findScriptFile, resolveScriptEnvironment, type ScriptEnvironment } from '../../autoinstall/script-environment.js'
import type { RunTool, Target } from '../../autoinstall/target.js'
import type { InstallPlan } from '../../autoinstall/types.js'
import { loadConfig } from '../../config/load.js'
import { ResilientError } from '../../errors.js'
import { printable, redactDeep, registerSecretEnv, registerSecrets } from '../../redact.js'
import { ownText } from '../../own-text.js'
import { formatCommand } from '../../tools/argv/format-command.js'
import { chooseReporter, type RunReporter } from '../ci-reporter.js'
import { configFlags, type RunFlags } from '../../run/flags.js'
import { TerminalReporter } from '../reporter.js'
import { askInTerminal } from '../../autoinstall/ask-in-terminal.js'
import { runScriptOnce, type ScriptChild } from '../../autoinstall/script-once.js'
import { runTool, type ToolRun } from '../../run/run-tool.js'
import { openScriptSession } from '../../autoinstall/script-session.js'
import { finalMessage, runReport } from './run-summary.js'

export interface RunOptions {
  yes?: boolean
  /** false with --no-auto-install; commander's default true is ignored so that the config decides. */
  autoInstall?: boolean
  installOnly?: boolean
  allowGlobal?: boolean
}

/** `pyenv which <name>`: the program behind a pyenv shim (`pytest` → ~/.pyenv/versions/3.11.7/bin/pytest). */
async function pyenvWhich(name: string): Promise<string | undefined> {
  const { execa } = await import('execa')
  const result = await execa('pyenv', ['which', name], { reject: false, stdin: 'ignore' })
  return result.exitCode === 0 ? String(result.stdout).trim() || undefined : undefined
}

function targetFor(environment: ScriptEnvironment, cwd: string, env: NodeJS.ProcessEnv, install: RunTool): Target | undefined {
  if (environment.ecosystem === 'python') return pythonTarget(environment.python, cwd, { home: env.HOME || homedir() })
  if (environment.ecosystem === 'node') return nodeTarget(cwd, install)
  return undefined
}

/** `resilient run [--yes] [--install-only] [--allow-global] [--no-auto-install] -- <command...>`: returns the exit code. */
export async function runScript(command: string[], options: RunOptions, globals: RunFlags): Promise<number> {
  const env = process.env
  const cwd = process.cwd()
  registerSecretEnv(env)
  registerSecrets(command.flatMap(arg => [...arg.matchAll(/:\/\/[^/@\s]*:([^/@\s]+)@/g)].map(m => m[1])))
  const { config } = await loadConfig({ cwd, env, flags: { ...configFlags(globals), autoInstall: options.autoInstall === false ? false : undefined } })
  const reporter: RunReporter = chooseReporter(env, new TerminalReporter({ stream: process.stderr, quiet: Boolean(globals.quiet), verbose: Boolean(globals.verbose || globals.debug), interactive: Boolean(process.stderr.isTTY) && !isCI }), process.stderr)
  const interactive = Boolean(process.stdin.isTTY && process.stderr.isTTY) && !isCI && globals.input !== false
  const environment: ScriptEnvironment = config.autoInstall ? await resolveScriptEnvironment(command, env, pyenvWhich) : { ecosystem: undefined, reason: 'auto-install is off' }
  if (environment.ecosystem) reporter.verbose(`the script runs in ${environment.ecosystem === 'python' ? environment.python : 'Node'} (${environment.origin})`)
  const hooks = prepareScriptHooks(environment.ecosystem, env)
  const installs: NonNullable<ToolRun['report']>[] = []
  const { interrupts, input, stopListening } = openScriptSession(command, config.replayInputMegabytes)

  // The narrow call into resilient's tool runs: mirrors, retries and diagnosis as for `resilient pip install`, and
  // no questions of its own (the one question was asked). The installer's output goes to stderr: stdout is the script's.
  // The installer gets no stdin: it must not read the script's.
  const installTool = async (argv: string[], where?: string, dryRun = false, extraEnv?: Record<string, string>): Promise<number> => {
    // Node managers install into the directory they run in: the script's project, which may not be ours.
    const run = await runTool(argv, { reporter, interrupts, flags: { ...globals, dryRun, report: undefined, input: false }, stdio: { stdout: 2, noInput: true },
      cwd: where ?? cwd, env: extraEnv ? { ...process.env, ...extraEnv } : process.env })
    if (run.report) installs.push(run.report)
    return run.exitCode
  }
  const child: ScriptChild = { env, interrupts, hooks, input, pty: globals.pty !== false && Boolean(process.stdout.isTTY && process.stderr.isTTY) && !isCI, warn: m => reporter.warn(m) }
  /** The re-run after an install: the one place where the script is started again (input replay belongs here). */
  const rerunScript = (again: string[]) => runScriptOnce(again, child)
  const deps: RepairDeps = {
    target: targetFor(environment, cwd, env, (argv, where) => installTool(argv, where)),
    unknownEnvironment: environment.ecosystem ? undefined : { reason: environment.reason, hint: environment.hint },
    runScript: () => runScriptOnce(command, child),
    rerunScript,
    cannotRunAgain: () => input.refusal(),
    describeIndex: plan => describeInstallIndex(plan.argv, config, { ...env, ...plan.env }, plan.cwd ?? cwd),
    ask: (lines, question) => askInTerminal(lines, question, interrupts),
    preview: async (plan: InstallPlan) => void await installTool(plan.argv, plan.cwd, true, plan.env),
    async install(plan) {
      try {
        const exitCode = await installTool(plan.argv, plan.cwd, false, plan.env)
        return exitCode === 0 ? { ok: true } : { ok: false, reason: `${plan.command} exited with ${exitCode}`, exitCode }
      } catch (error) {
        if (error instanceof ResilientError) return { ok: false, reason: `${error.message}${error.hint ? ` ${error.hint}` : ''}`, exitCode: error.exitCode }
        throw error
      }
    },
    record: entry => appendAutoInstallRecord({ ...entry, at: new Date().toISOString(), ecosystem: environment.ecosystem!, script: formatCommand({ argv: command, env: {} }), cwd }, env, m => reporter.warn(m))
      .catch(error => reporter.warn(`the install could not be recorded in the state directory: ${(error as Error).message}`)),
    say: (message, level) => level === 'warn' ? reporter.warn(message) : level === 'note' ? reporter.note(message)
      : process.stderr.write(`${level === 'hint' ? '  → ' : ''}${printable(ownText(message))}\n`),
  }

  try {
    const interpreterAt = environment.ecosystem === 'python' ? environment.interpreterAt : undefined
    const result = await repairScript({
      autoInstall: config.autoInstall, maxAutoInstalls: config.maxAutoInstalls, yes: Boolean(options.yes || globals.yes), interactive,
      allowGlobal: Boolean(options.allowGlobal), installOnly: Boolean(options.installOnly), dryRun: Boolean(globals.dryRun),
      command, interpreterAt, entry: findScriptFile(command.slice(interpreterAt ?? 0), cwd), cwd,
    }, deps)
    process.stderr.write(ownText(finalMessage(result)))
    if (globals.report) {
      try {
        writeFileSync(globals.report, `${JSON.stringify(redactDeep(runReport(result, command, installs)), null, 2)}
`, { mode: 0o600 })
      } catch (error) {
        reporter.warn(`could not write the report to ${globals.report}: ${(error as Error).message}`)
      }
    }
    return result.exitCode
  } finally {
    input.close()
    stopListening()
    hooks.dispose()
  }
}
