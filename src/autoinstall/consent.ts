import type { Candidate, MissingModule } from './types.js'

export type Installable = Extract<Candidate, { tier: 'allowlist' | 'proposed' }>

export type ConsentMode =
  | { action: 'install'; how: 'yes-flag' }
  | { action: 'ask'; defaultYes: boolean }
  | { action: 'decline'; reason: string }

/**
 * Who may say yes (auto-install-safety.md §5.1, §5.3). A reviewed name installs after a default-yes prompt, or
 * directly with --yes. Any other name installs only when the person confirms it in a terminal, --yes or not:
 * a flag typed before the name was known cannot vouch for it. With no terminal, nothing else installs.
 */
export function consentMode(tier: Installable['tier'], { yes, interactive }: { yes: boolean; interactive: boolean }): ConsentMode {
  if (tier === 'allowlist') {
    if (yes) return { action: 'install', how: 'yes-flag' }
    if (interactive) return { action: 'ask', defaultYes: true }
    return { action: 'decline', reason: 'there is no terminal to ask in: add --yes to install reviewed names without asking' }
  }
  if (interactive) return { action: 'ask', defaultYes: false }
  return { action: 'decline', reason: `it is not in resilient's reviewed list, so it is installed only after you confirm it in a terminal${yes ? ' (--yes covers reviewed names only)' : ''}` }
}

/** The evidence shown before the question: what failed, what would be installed, where, and the exact command. */
export function describeProposal(candidate: Installable, missing: MissingModule, plan: { command: string; environment: string }): string[] {
  return [
    `The script failed because it cannot import "${missing.name}":`,
    ...missing.evidence.map(line => `    ${line}`),
    `  package:  ${candidate.why}`,
    `  into:     ${plan.environment}`,
    `  command:  ${plan.command}`,
    ...(candidate.tier === 'proposed' ? ['  Check the name on the registry before you say yes: a wrong one runs someone else\'s code.'] : []),
  ]
}
