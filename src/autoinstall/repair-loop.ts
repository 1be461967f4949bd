import type { ChildResult } from '../exec/run-child.js'
import type { Installable } from './consent.js'
import type { Candidate, Detection, MissingModule } from './types.js'

/** How one install would run: shown in the prompt and the record before it runs. */
export interface InstallPlan {
  argv: string[]
  /** `argv` as one string, redacted (formatCommand). */
  command: string
  /** The interpreter or the project directory, for the person. */
  environment: string
  /** The directory the install runs in (a Node project's); the current one when absent. */
  cwd?: string
}

export interface AutoInstalled {
  module: string
  package: string
  tier: Installable['tier']
  consent: 'yes-flag' | 'prompt'
  environment: string
  command: string
}

export type Consent = { granted: true; how: AutoInstalled['consent'] } | { granted: false; reason: string }

/** Everything the loop does to the world, passed in: tests script it, `cli/commands/run.ts` wires the real thing. */
export interface RepairDeps {
  runScript(): Promise<ChildResult>
  detect(output: string): Detection | undefined
  choose(missing: MissingModule): Promise<Candidate>
  plan(candidate: Installable): InstallPlan
  consent(candidate: Installable, missing: MissingModule, plan: InstallPlan): Promise<Consent>
  /** Runs the install through resilient's retrying path; the reason when it failed. */
  install(plan: InstallPlan): Promise<{ ok: true } | { ok: false; reason: string }>
  verify(candidate: Installable, missing: MissingModule): Promise<{ ok: boolean; detail?: string }>
  uninstall(candidate: Installable): Promise<void>
  record(installed: AutoInstalled): Promise<void>
  say(message: string, level: 'note' | 'warn'): void
}

export interface RepairResult {
  /** The script's own exit code from its last run. */
  exitCode: number
  runs: number
  autoInstalled: AutoInstalled[]
  /** Why a missing module was not repaired, when one was found and left alone. */
  stopReason?: string
}

/**
 * Runs the script; while it fails on a missing module that may be installed, installs it and runs it again.
 * Limits (auto-install-safety.md §5.8): at most `maxAutoInstalls` installs, each package tried once, and a stop
 * when an install did not change the error or the error moved into the package just installed.
 */
export async function runAndRepair(settings: { autoInstall: boolean; maxAutoInstalls: number }, deps: RepairDeps): Promise<RepairResult> {
  const autoInstalled: AutoInstalled[] = []
  const tried = new Set<string>()
  let previous: string | undefined
  for (let runs = 1; ; runs++) {
    const result = await deps.runScript()
    const stop = (reason?: string, hint?: string): RepairResult => {
      if (reason) deps.say(`${reason}${hint ? `\n  → ${hint}` : ''}`, 'warn')
      return { exitCode: result.exitCode, runs, autoInstalled, stopReason: reason }
    }
    if (result.exitCode === 0 || result.interrupted || result.spawnError || !settings.autoInstall) return stop()
    const detection = deps.detect(result.output)
    if (!detection) return stop()
    if (detection.kind === 'not-installable') return stop(`The script failed on an import that installing a package cannot fix: ${detection.refusal.reason}`, detection.refusal.hint)
    const missing = detection.module
    const key = `${missing.ecosystem}:${missing.name}`
    const last = autoInstalled.at(-1)
    if (last && key === previous) return stop(`"${missing.name}" still cannot be imported after installing ${last.package}; stopping.`, `Check what ${last.package} provides, and uninstall it if it is not what the script needs.`)
    const inside = last && missing.importer && autoInstalled.find(installed => insidePackage(missing.importer!, installed))
    if (inside) return stop(`${inside.package}, just installed, needs "${missing.name}" itself: a dependency problem of that package, not of the script.`, `Install ${inside.package} with its extras or dependencies yourself.`)
    const candidate = await deps.choose(missing)
    if (candidate.tier === 'refused') return stop(`The script cannot import "${missing.name}", and resilient will not install it: ${candidate.reason}`, candidate.hint)
    if (tried.has(candidate.package)) return stop(`${candidate.package} was already installed in this run; stopping.`)
    if (autoInstalled.length >= settings.maxAutoInstalls) return stop(`The script also needs ${candidate.package}, but ${settings.maxAutoInstalls} packages were installed already (maxAutoInstalls).`, 'Install the rest yourself, or raise maxAutoInstalls.')
    const plan = deps.plan(candidate)
    const consent = await deps.consent(candidate, missing, plan)
    if (!consent.granted) return stop(`The script cannot import "${missing.name}"; ${candidate.package} was not installed: ${consent.reason}.`, `To install it yourself: ${plan.command}`)
    tried.add(candidate.package)
    const installed = await deps.install(plan)
    if (!installed.ok) return stop(`Installing ${candidate.package} failed: ${installed.reason}`)
    const verified = await deps.verify(candidate, missing)
    if (!verified.ok) {
      await deps.uninstall(candidate)
      return stop(`${candidate.package} was installed but "${candidate.verifyModule}" still does not come from it${verified.detail ? ` (${verified.detail})` : ''}; it was uninstalled.`)
    }
    const entry: AutoInstalled = { module: missing.name, package: candidate.package, tier: candidate.tier, consent: consent.how, environment: plan.environment, command: plan.command }
    autoInstalled.push(entry)
    await deps.record(entry)
    previous = key
    deps.say(`installed ${candidate.package} for "${missing.name}" into ${plan.environment}; running the command again`, 'note')
  }
}

/** The failing import sits in the files of a package this run installed (site-packages/<top>/, node_modules/<name>/). */
function insidePackage(importer: string, installed: AutoInstalled): boolean {
  const path = importer.replace(/\\/g, '/')
  const top = installed.module.split(/[./]/)[0]!
  return path.includes(`/node_modules/${installed.package}/`) || /\/(site|dist)-packages\//.test(path) && path.includes(`-packages/${top}/`)
}
