import type { Choice, InstallPlan, MissingModule, Wanted } from './types.js'

/** One package line of the prompt: what, for which import, which version, and why this name. */
function packageLine(item: Wanted): string {
  const version = item.declared?.requirement ? `${item.requirement} (already declared in ${item.declared.origin})` : `${item.requirement} (the newest on the index)`
  const review = item.candidate.tier === 'proposed' ? '  NOT REVIEWED' : ''
  return `  - ${version} for "${item.module.name}"${review}\n      ${item.candidate.why}`
}

/** Why a missing module of the scan is left alone: refused names, and declarations pip or npm cannot follow. */
export function notInstalled(choice: Choice): string | undefined {
  if (choice.candidate.tier === 'refused') return choice.candidate.reason
  if (choice.declared?.unusable) return `${choice.candidate.package} is declared in ${choice.declared.origin}, but ${choice.declared.unusable}`
  return undefined
}

/**
 * Everything shown before the one question: the failure, every package with its version and reason, where it goes,
 * the index, the exact command, and that the command runs again from the start.
 */
export function describeProposal(failure: MissingModule, wanted: Wanted[], skipped: { module: MissingModule; reason: string }[], plan: InstallPlan & { index: string }, rerun: boolean): string[] {
  const unreviewed = wanted.some(item => item.candidate.tier === 'proposed')
  return [
    `The script failed because it cannot import "${failure.name}":`,
    ...failure.evidence.map(line => `    ${line}`),
    `resilient would install, in one command:`,
    ...wanted.map(packageLine),
    ...skipped.map(({ module, reason }) => `  - nothing for "${module.name}": ${reason}`),
    `  into:     ${plan.environment}`,
    `  index:    ${plan.index}`,
    `  command:  ${plan.command}`,
    ...(rerun ? ['Then the command runs again from the start: whatever it did before failing (files written, requests sent) happens again.'] : []),
    ...(unreviewed ? ['Check each NOT REVIEWED name on the registry before you say yes: a wrong one runs someone else\'s code.'] : []),
  ]
}
