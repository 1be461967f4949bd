import { join } from 'node:path'
import { EXIT } from '../errors.js'
import { exitCodeOf } from '../exec/run-child.js'
import { decideConsent } from './consent.js'
import { detectNodeMissing } from './detect-node.js'
import { detectPythonMissing } from './detect-python.js'
import { finalError } from './final-error.js'
import { addedVersion, describeChanges, diffInstalled } from './install-outcome.js'
import { describeProposal, notInstalled } from './proposal.js'
import type { AutoInstalled, RepairDeps, RepairResult, RepairSettings } from './repair-types.js'
import type { Target } from './target.js'
import type { Choice, Installable, InstallPlan, MissingModule, Wanted } from './types.js'

export type { AutoInstalled, RepairDeps, RepairResult, RepairSettings, ScriptRun } from './repair-types.js'

const toWanted = (choice: Choice): Wanted => ({ module: choice.module, candidate: choice.candidate as Installable, declared: choice.declared, requirement: choice.declared?.requirement ?? (choice.candidate as Installable).package })

type End = (exitCode: number, reason?: string, hint?: string) => RepairResult

/** What the one install will hold (the failing import first, at most `max`), and what is left out with why. */
function selectPackages(choices: Choice[], max: number): { wanted: Wanted[]; skipped: { module: MissingModule; reason: string }[] } {
  const skipped = choices.flatMap(choice => notInstalled(choice) ? [{ module: choice.module, reason: notInstalled(choice)! }] : [])
  const installable = choices.filter(choice => !notInstalled(choice)).map(toWanted)
  for (const item of installable.slice(max)) skipped.push({ module: item.module, reason: `more than ${max} packages in one run (maxAutoInstalls)` })
  return { wanted: installable.slice(0, max), skipped }
}

/**
 * `resilient run`: runs the script; when its own final error is a missing module, finds every missing import of
 * the script, asks once, installs them in one command, checks them, and runs the script again once, from the start.
 */
export async function repairScript(settings: RepairSettings, deps: RepairDeps): Promise<RepairResult> {
  let command = settings.command
  let runs = 1
  const autoInstalled: AutoInstalled[] = []
  const end: End = (exitCode, reason, hint) => {
    if (reason) deps.say(reason, 'warn')
    if (reason && hint) deps.say(hint, 'hint')
    return { exitCode, runs, autoInstalled, stopReason: reason, command }
  }
  const first = await deps.runScript()
  if (first.exitCode === 0 || first.interrupted || first.spawnError || !settings.autoInstall) return end(first.exitCode)
  const { target } = deps
  if (!target) {
    const found = finalError(first.outcome, first.output, text => detectPythonMissing(text) ?? detectNodeMissing(text))
    return found?.kind === 'missing' ? end(first.exitCode, `The script cannot import "${found.module.name}", and resilient installs nothing: ${deps.unknownEnvironment?.reason ?? 'it cannot tell the script\'s environment'}.`, deps.unknownEnvironment?.hint) : end(first.exitCode)
  }
  const detection = await target.failure(first.outcome, first.output)
  if (!detection) return end(first.exitCode)
  if (detection.kind === 'not-installable') return end(first.exitCode, `The script failed on an import that resilient will not install anything for: ${detection.refusal.reason}`, detection.refusal.hint)
  const missing = detection.module
  // Nothing is installed for a re-run that could not be given the same input (a stream longer than resilient keeps).
  const noReplay = settings.installOnly || settings.dryRun ? undefined : deps.cannotRunAgain?.()
  if (noReplay) return end(first.exitCode, `The script cannot import "${missing.name}", and it cannot be run again with the same input: ${noReplay}.`, 'Install the package yourself (or use --install-only), then run the script again.')
  const choices = await target.gather(missing, settings.entry)
  const refusal = notInstalled(choices[0]!)
  if (refusal) return end(first.exitCode, `The script cannot import "${missing.name}", and resilient will not install it: ${refusal}`, choices[0]!.candidate.tier === 'refused' ? choices[0]!.candidate.hint : undefined)
  const selected = selectPackages(choices, settings.maxAutoInstalls)
  // Nothing installed and nobody asked: the caller sees the script's own status, and one line says why.
  if (!selected.wanted.length) return end(first.exitCode, `The script cannot import "${missing.name}"; nothing was installed: maxAutoInstalls is 0.`)
  const shown = target.plan(selected.wanted)
  const plan = { ...shown, index: deps.describeIndex(shown) }
  const lines = describeProposal(missing, selected.wanted, selected.skipped, plan, !settings.installOnly)
  if (settings.dryRun) {
    for (const line of lines.flatMap(entry => entry.split('\n'))) deps.say(line, 'detail')
    await deps.preview(plan)
    return end(first.exitCode)
  }
  const before = await target.snapshot()
  if (!before) return end(first.exitCode, `resilient cannot list what is installed in ${plan.environment}, so it could not tell what an install changed; it installs nothing.`, `Install it yourself: ${plan.command}`)
  const agreed = await agree({ settings, deps, target, missing, wanted: selected.wanted, plan, lines, end, scriptExit: first.exitCode })
  if ('exitCode' in agreed) return agreed
  if (agreed.python) command = command.map((word, index) => index === settings.interpreterAt ? agreed.python! : word)
  const stage = { settings, deps, target, missing, autoInstalled, end, setRuns: (count: number) => { runs = count }, command: () => command }
  return installAndRerun({ ...stage, ...agreed, before: agreed.python ? (await target.snapshot()) ?? before : before })
}

interface Agreement {
  wanted: Wanted[]
  plan: InstallPlan
  consent: AutoInstalled['consent']
  /** The interpreter of a virtual environment made for the install: the re-run uses it. */
  python?: string
}

/** The one question (or --yes, or a stop): what will be installed, where, and on whose word. */
async function agree({ settings, deps, target, missing, wanted, plan, lines, end, scriptExit }: { settings: RepairSettings; deps: RepairDeps; target: Target; missing: MissingModule; wanted: Wanted[]; plan: InstallPlan; lines: string[]; end: End; scriptExit: number }): Promise<Agreement | RepairResult> {
  const decision = decideConsent(wanted, await target.place(), { ...settings, canUseVenv: settings.interpreterAt !== undefined })
  // A stop without a question changed nothing: the script's own status, as if resilient were not there.
  if (decision.kind === 'stop') return end(scriptExit, `The script cannot import "${missing.name}"; nothing was installed: ${decision.reason}.`, decision.hint ?? `To install it yourself: ${plan.command}`)
  if (decision.kind === 'install') {
    for (const { wanted: item, reason } of decision.left) deps.say(`not installing ${item.candidate.package} (for "${item.module.name}"): ${reason}`, 'warn')
    return { wanted: decision.wanted, plan: target.plan(decision.wanted), consent: 'yes-flag' }
  }
  const answer = await deps.ask(lines, decision.question)
  if (typeof answer === 'object') return end(exitCodeOf(null, answer.interrupted), 'Interrupted at the question; nothing was installed.')
  if (answer === 'none') return end(EXIT.declined, `The script cannot import "${missing.name}"; nothing was installed: you declined.`, `To install it yourself: ${plan.command}`)
  if (answer !== 'venv') return { wanted, plan, consent: 'prompt' }
  const venv = await target.useVirtualEnvironment!(join(settings.cwd, '.venv'))
  if (!venv.ok) return end(EXIT.installFailed, `The virtual environment could not be made: ${venv.reason}`)
  const again = settings.command.map((word, index) => index === settings.interpreterAt ? venv.python : word)
  deps.say(`using the virtual environment ${venv.python}; run the script with it from now on: ${again.join(' ')}`, 'note')
  return { wanted, plan: target.plan(wanted), consent: 'prompt', python: venv.python }
}

interface Stage {
  settings: RepairSettings
  deps: RepairDeps
  target: Target
  wanted: Wanted[]
  plan: InstallPlan
  /** What was installed before (in the new virtual environment, after a switch to one). */
  before: Record<string, string>
  missing: MissingModule
  consent: AutoInstalled['consent']
  autoInstalled: AutoInstalled[]
  end: End
  setRuns(count: number): void
  command(): string[]
}

async function installAndRerun({ settings, deps, target, wanted, plan, before, missing, consent, autoInstalled, end, setRuns, command }: Stage): Promise<RepairResult> {
  const installed = await deps.install(plan)
  const changes = diffInstalled(before, (await target.snapshot()) ?? before)
  const added = Object.keys(changes.added)
  const requested = wanted.map(item => item.candidate.package)
  const undo = async (why: string, exitCode: number) => {
    if (!added.length) return end(exitCode, `${why}; nothing was installed, so there is nothing to undo.`)
    const removed = await target.rollback(added, requested)
    return end(exitCode, `${why}; ${removed.ok ? 'removed' : 'could not remove'} what this run added (${added.join(', ')}${removed.command ? `: ${removed.command}` : ''}).`)
  }
  if (!installed.ok) return undo(`The install failed: ${installed.reason}`, installed.exitCode >= 128 ? installed.exitCode : EXIT.installFailed)
  for (const item of wanted) {
    const check = await target.verify(item)
    if (!check.ok) return undo(`${item.candidate.package} does not provide "${item.candidate.verifyModule}" where the script looks${check.detail ? ` (${check.detail})` : ''}`, EXIT.installFailed)
  }
  for (const line of describeChanges(changes, wanted)) deps.say(line, 'note')
  if (!added.length) return end(EXIT.installFailed, `Nothing was installed: everything asked for was already there, so the failing import of "${missing.name}" has another cause.`, 'Check sys.path and the interpreter the script really uses.')
  for (const item of wanted) {
    const version = addedVersion(changes, item)
    if (!version) continue
    const entry: AutoInstalled = { module: item.module.name, package: item.candidate.package, version, declaredIn: item.declared?.origin, tier: item.candidate.tier, consent, environment: plan.environment, command: plan.command }
    autoInstalled.push(entry)
    await deps.record(entry)
  }
  if (settings.installOnly) return end(0)
  deps.say('running the command again from the start', 'note')
  const again = await deps.rerunScript(command())
  setRuns(2)
  const still = again.exitCode !== 0 && !again.interrupted ? await target.failure(again.outcome, again.output) : undefined
  if (still?.kind === 'missing') return end(again.exitCode, `The script still cannot import "${still.module.name}" after the install; resilient runs a command again only once.`, 'Install the rest yourself, then run the command again.')
  return end(again.exitCode)
}
