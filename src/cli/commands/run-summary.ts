import type { RepairResult } from '../../autoinstall/repair.js'

/** The last words of `resilient run`: what it installed, for good, and whether the project already says so. */
export function finalMessage(result: RepairResult): string {
  if (!result.autoInstalled.length) return ''
  const list = result.autoInstalled.map(item => `${item.package} ${item.version} (for "${item.module}", into ${item.environment})`).join(', ')
  const declared = result.autoInstalled.filter(item => item.declaredIn).map(item => `${item.package} is already declared in ${item.declaredIn}`)
  const undeclared = result.autoInstalled.filter(item => !item.declaredIn).map(item => item.package)
  const advice = [
    ...declared,
    ...(undeclared.length ? [`Add ${undeclared.join(', ')} to the project's requirements to keep ${undeclared.length > 1 ? 'them' : 'it'}`] : []),
  ]
  return `resilient: auto-installed ${list}. ${advice.map(sentence => `${sentence}.`).join(' ')}\n`
}

/** The `--report` file of `resilient run`. */
export function runReport(result: RepairResult, command: string[], installs: unknown[]) {
  return { command, finalCommand: result.command, exitCode: result.exitCode, runs: result.runs, autoInstalled: result.autoInstalled, stopReason: result.stopReason ?? null, installs }
}
