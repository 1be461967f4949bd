import type { Placement, Wanted } from './types.js'

export type { Installable } from './types.js'

/** What the person can answer. `all`: install everything listed; `venv`: the same, into ./.venv; `global`: into a global Python. */
export type Answer = 'all' | 'venv' | 'global' | 'none'

export interface Question {
  message: string
  choices: { value: Answer; name: string }[]
  default: Answer
}

export type StopCode = 'declined' | 'needs-terminal'

export type Decision =
  | { kind: 'install'; wanted: Wanted[]; how: 'yes-flag'; left: { wanted: Wanted; reason: string }[] }
  | { kind: 'ask'; question: Question }
  | { kind: 'stop'; reason: string; hint?: string; code: StopCode }

export interface ConsentSettings {
  yes: boolean
  /** stdin and stderr are terminals, not CI, no --no-input. */
  interactive: boolean
  /** --allow-global: the person said a Python that is not a virtual environment may be changed. */
  allowGlobal: boolean
  /** The command names the interpreter itself, so a re-run can use a new virtual environment's instead. */
  canUseVenv: boolean
  installOnly: boolean
}

const UNREVIEWED = 'it is not in resilient\'s reviewed list, so it is installed only after you confirm it in a terminal (--yes covers reviewed names only)'

/**
 * Who may say yes, asked once for the whole install (docs/run.md). Reviewed names install
 * after a prompt, or with --yes; unreviewed ones only after a yes typed in a terminal. A Python that is not a
 * virtual environment is changed only when the person says so explicitly (--allow-global, or that choice in the
 * prompt), never on --yes alone, and never against PEP 668.
 */
export function decideConsent(wanted: Wanted[], placement: Placement, settings: ConsentSettings): Decision {
  const { yes, interactive, allowGlobal, canUseVenv } = settings
  const unreviewed = wanted.filter(item => item.candidate.tier === 'proposed')
  const again = settings.installOnly ? '' : ' and run the command again'
  const count = wanted.length === 1 ? wanted[0]!.candidate.package : `these ${wanted.length} packages`
  if (placement.kind === 'global' && (!allowGlobal || placement.externallyManaged)) {
    const venv = { value: 'venv' as const, name: `Create ./.venv (seeing this Python's packages), install ${count} there${again} with .venv/bin/python` }
    const global = { value: 'global' as const, name: `Install into ${placement.prefix} (every program using this Python sees it)` }
    const choices = [...(canUseVenv ? [venv] : []), ...(placement.externallyManaged ? [] : [global])]
    if (interactive && choices.length) return { kind: 'ask', question: { message: 'This Python is not a virtual environment. What should resilient do?', choices: [...choices, { value: 'none', name: 'Nothing' }], default: 'none' } }
    const why = placement.externallyManaged
      ? `${placement.prefix} is managed by the operating system (PEP 668): pip refuses to install into it, and resilient never overrides that`
      : `${placement.prefix} is not a virtual environment: installing there changes every program that uses this Python; say so with --allow-global (--yes alone does not)`
    return { kind: 'stop', reason: why, hint: 'Create a virtual environment and run the script with it: python3 -m venv .venv && resilient run -- .venv/bin/python <script>', code: 'declined' }
  }
  if (!interactive) {
    if (!yes) return { kind: 'stop', reason: 'there is no terminal to ask in: add --yes to install reviewed names without asking', code: 'needs-terminal' }
    if (wanted[0]!.candidate.tier === 'proposed') return { kind: 'stop', reason: UNREVIEWED, code: 'needs-terminal' }
    return { kind: 'install', how: 'yes-flag', wanted: wanted.filter(item => item.candidate.tier === 'allowlist'), left: unreviewed.map(item => ({ wanted: item, reason: UNREVIEWED })) }
  }
  if (yes && !unreviewed.length) return { kind: 'install', how: 'yes-flag', wanted, left: [] }
  const where = placement.kind === 'global' ? ` into ${placement.prefix}` : ''
  return { kind: 'ask', question: { message: `Install ${count}${where}${again}?`, choices: [{ value: 'all', name: 'Yes' }, { value: 'none', name: 'No' }], default: unreviewed.length ? 'none' : 'all' } }
}
