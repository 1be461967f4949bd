// Types of bench/accuracy-render.mjs, which `npm run bench` runs with plain node.

export interface Tally {
  cases: number
  label: number
  decision: number
}

export interface AccuracyFigure {
  round: number
  date: string
  sources: number
  folds: Record<string, Tally>
  catalog: Record<string, Tally>
  heldOut: Record<string, Tally>
  tuned: Record<string, Tally>
  earlier: Record<string, Record<string, Tally>>
  unseen: Record<string, { dev: Record<string, Tally>; final: Record<string, Tally>; finalByFamily: Record<string, Tally> }>
  /** Set when the final parts were measured again after a later change: that change, in a few words. */
  remeasured?: string
}

export function accuracyTable(e: AccuracyFigure): string
export function accuracySentence(e: AccuracyFigure): string
export function accuracySections(e: AccuracyFigure | undefined): Record<string, string>
