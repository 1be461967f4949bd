import { writeFileSync } from 'node:fs'
import { isCI } from 'ci-info'
import { consentMode, describeProposal } from '../../autoinstall/consent.js'
import { detectNodeMissing } from '../../autoinstall/detect-node.js'
import { detectPythonMissing } from '../../autoinstall/detect-python.js'
import { appendAutoInstallRecord } from '../../autoinstall/record.js'
import { runAndRepair, type InstallPlan, type RepairDeps } from '../../autoinstall/repair-loop.js'
import { resolveScriptEnvironment, type ScriptEnvironment } from '../../autoinstall/script-environment.js'
import { nodeTarget, pythonTarget, type Target } from '../../autoinstall/targets.js'
import { loadConfig } from '../../config/load.js'
import { ResilientError } from '../../errors.js'
import { Interrupts } from '../../exec/interrupts.js'
import { runChild } from '../../exec/run-child.js'
import { redact, redactDeep, registerSecretEnv, registerSecrets } from '../../redact.js'
import { formatCommand } from '../../retry/format.js'
import { chooseReporter, type RunReporter } from '../ci-reporter.js'
import { configFlags, type GlobalOptions } from '../options.js'
import { RedactingStream, redactedChildStreams } from '../redacting-stream.js'
import { TerminalReporter } from '../reporter.js'
import { listenForInterrupts, runTool, toReport } from './run-tool.js'

export interface RunOptions {
  yes?: boolean
  /** false with --no-auto-install; commander's default true is ignored so that the config decides. */
  autoInstall?: boolean
}

/** `pyenv which <name>`: the program behind a pyenv shim (`pytest` → ~/.pyenv/versions/3.11.7/bin/pytest). */
async function pyenvWhich(name: string): Promise<string | undefined> {
  const { execa } = await import('execa')
  const result = await execa('pyenv', ['which', name], { reject: false, stdin: 'ignore' })
  return result.exitCode === 0 ? String(result.stdout).trim() || undefined : undefined
}

/** With no usable environment, a missing module is still explained, never installed. */
function targetFor(environment: ScriptEnvironment, cwd: string): Pick<Target, 'detect'> & Partial<Target> {
  if (environment.ecosystem === 'python') return pythonTarget(environment.python, cwd)
  if (environment.ecosystem === 'node') return nodeTarget(cwd)
  return {
    detect: output => {
      const found = detectPythonMissing(output) ?? detectNodeMissing(output)
      return found?.kind === 'missing' ? { kind: 'not-installable', refusal: { reason: `${environment.reason}.`, evidence: found.module.evidence } } : found
    },
  }
}

async function ask(lines: string[], message: string, defaultYes: boolean): Promise<boolean> {
  process.stderr.write(`${redact(lines.join('\n'))}\n`)
  const { default: confirm } = await import('@inquirer/confirm')
  try {
    return await confirm({ message, default: defaultYes }, { input: process.stdin, output: process.stderr })
  } catch {
    return false // Ctrl-C or a closed terminal: a no.
  }
}

/** `resilient run [--yes] [--no-auto-install] -- <command...>`: returns the script's own exit code. */
export async function runScript(command: string[], options: RunOptions, globals: GlobalOptions): Promise<number> {
  if (globals.dryRun) {
    // Nothing is planned before the script fails: the one command known in advance is the script's.
    process.stdout.write(`${formatCommand({ argv: command, env: {} })}\n`)
    return 0
  }
  const env = process.env
  const cwd = process.cwd()
  registerSecretEnv(env)
  registerSecrets(command.flatMap(arg => [...arg.matchAll(/:\/\/[^/@\s]*:([^/@\s]+)@/g)].map(m => m[1])))
  const { config } = await loadConfig({ cwd, env, flags: { ...configFlags(globals), autoInstall: options.autoInstall === false ? false : undefined } })
  const reporter: RunReporter = chooseReporter(env, new TerminalReporter({ stream: process.stderr, quiet: Boolean(globals.quiet), verbose: Boolean(globals.verbose || globals.debug), interactive: Boolean(process.stderr.isTTY) && !isCI }), process.stderr)
  const yes = Boolean(options.yes || globals.yes)
  const interactive = Boolean(process.stdin.isTTY && process.stderr.isTTY) && !isCI && globals.input !== false
  const usePty = globals.pty !== false && Boolean(process.stdout.isTTY && process.stderr.isTTY) && !isCI
  const environment = config.autoInstall ? await resolveScriptEnvironment(command, env, pyenvWhich) : { ecosystem: undefined, reason: 'auto-install is off' } as const
  if (environment.ecosystem) reporter.verbose(`the script runs in ${environment.ecosystem === 'python' ? environment.python : 'Node'} (${environment.origin})`)
  const target = targetFor(environment, cwd)
  const installs: ReturnType<typeof toReport>[] = []
  const interrupts = new Interrupts()
  const stopListening = listenForInterrupts(interrupts)

  const runInstall = async (plan: InstallPlan): Promise<number> => {
    const toolOptions = { ...globals, dryRun: false, report: undefined }
    // The installer's output is resilient's business: stderr, so that stdout stays the script's own (`> out.txt`).
    const output = new RedactingStream(process.stderr)
    // Node managers install into the directory they run in: the script's project, which may not be ours.
    if (plan.cwd) process.chdir(plan.cwd)
    try {
      return await runTool(plan.argv, toolOptions, { reporter, interrupts, stdout: output, onResult: (tool, result) => installs.push(toReport(tool, result)) })
    } finally {
      output.flush()
      process.chdir(cwd)
    }
  }
  const deps: RepairDeps = {
    runScript: async () => {
      const streams = redactedChildStreams(usePty)
      const result = await runChild({ argv: command, env: {} }, { env, interrupts, pty: usePty, ...streams.options })
      streams.flush()
      if (result.spawnError) reporter.warn(`${command[0]} could not be started: ${result.spawnError}`)
      return result
    },
    detect: output => target.detect(output),
    choose: missing => target.choose!(missing),
    plan: candidate => target.plan!(candidate),
    async consent(candidate, missing, plan) {
      const mode = consentMode(candidate.tier, { yes, interactive })
      if (mode.action === 'install') return { granted: true, how: mode.how }
      if (mode.action === 'decline') return { granted: false, reason: mode.reason }
      const granted = await ask(describeProposal(candidate, missing, plan), `Install ${candidate.package}?`, mode.defaultYes)
      return granted ? { granted: true, how: 'prompt' } : { granted: false, reason: 'you declined' }
    },
    async install(plan) {
      try {
        const exitCode = await runInstall(plan)
        return exitCode === 0 ? { ok: true } : { ok: false, reason: `${plan.command} exited with ${exitCode}` }
      } catch (error) {
        if (error instanceof ResilientError) return { ok: false, reason: `${error.message}${error.hint ? ` ${error.hint}` : ''}` }
        throw error
      }
    },
    verify: (candidate, missing) => target.verify!(candidate, missing),
    async uninstall(candidate) {
      await runInstall(target.uninstall!(candidate)).catch(() => {})
    },
    record: entry => appendAutoInstallRecord({ ...entry, at: new Date().toISOString(), ecosystem: target.ecosystem!, script: formatCommand({ argv: command, env: {} }), cwd }, env, m => reporter.warn(m))
      .catch(error => reporter.warn(`the install could not be recorded in the state directory: ${(error as Error).message}`)),
    say: (message, level) => (level === 'warn' ? reporter.warn(message) : reporter.note(message)),
  }

  try {
    const result = await runAndRepair({ autoInstall: config.autoInstall, maxAutoInstalls: config.maxAutoInstalls }, deps)
    if (result.autoInstalled.length) {
      const list = result.autoInstalled.map(installed => `${installed.package} (for "${installed.module}", into ${installed.environment})`).join(', ')
      process.stderr.write(redact(`resilient: auto-installed ${list}. Add ${result.autoInstalled.length > 1 ? 'them' : 'it'} to the project's requirements to keep ${result.autoInstalled.length > 1 ? 'them' : 'it'}.\n`))
    }
    if (globals.report) {
      const report = redactDeep({ command, exitCode: result.exitCode, runs: result.runs, autoInstalled: result.autoInstalled, stopReason: result.stopReason ?? null, installs })
      try {
        writeFileSync(globals.report, `${JSON.stringify(report, null, 2)}\n`)
      } catch (error) {
        reporter.warn(`could not write the report to ${globals.report}: ${(error as Error).message}`)
      }
    }
    return result.exitCode
  } finally {
    stopListening()
  }
}
