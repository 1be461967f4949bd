import { describe, expect, it } from 'vitest'
import { accuracySections, type AccuracyFigure } from '../../bench/accuracy-render.mjs'

// Figure (e) as the documents quote it: rendered from the measured tallies, never typed by hand.
const tally = (cases: number, label: number, decision: number) => ({ cases, label, decision })
const figure: AccuracyFigure = {
  round: 9, date: '2030-01-02', sources: 7,
  folds: { all: tally(10, 0.9, 1) }, catalog: { all: tally(80, 1, 1) }, heldOut: { all: tally(4, 0.75, 1) }, tuned: { all: tally(10, 1, 1) },
  earlier: { 'round 8 issue pastes': { all: tally(5, 0.8, 0.8) } },
  unseen: {
    'issue pastes': { dev: { all: tally(3, 1, 1) }, final: { all: tally(31, 29 / 31, 30 / 31) }, finalByFamily: { pip: tally(6, 5 / 6, 1), all: tally(31, 29 / 31, 30 / 31) } },
    'newest wordings': { dev: { all: tally(2, 0.5, 1) }, final: { all: tally(40, 0.875, 0.95) }, finalByFamily: { uv: tally(14, 13 / 14, 1), all: tally(40, 0.875, 0.95) } },
  },
}

describe('figure (e) rendered for the documents', () => {
  const sections = accuracySections(figure)

  it('puts the final parts first, measured once, with their sizes and one-decimal percentages', () => {
    const lines = sections['bench-accuracy']!.split('\n')
    const first = lines.findIndex(line => line.startsWith('| **'))
    expect(lines[first]).toBe('| **issue pastes, round 9 final part** (labelled and committed first; measured once, never tuned on) | 31 | 93.5% | 96.8% |')
    expect(lines[first + 1]).toBe('| **newest wordings, round 9 final part** (labelled and committed first; measured once, never tuned on) | 40 | 87.5% | 95.0% |')
    expect(sections['bench-accuracy']).toContain('| round 8 issue pastes, whole (blind once, since tuned on) | 5 | 80.0% | 80.0% |')
    expect(sections['bench-accuracy']).toContain('| pip (pip, pipx, python) | 6 · 83.3% · 100.0% | — |')
  })

  it("gives README's sentence with the same one-decimal percentages", () => {
    expect(sections['bench-diagnosis']).toBe('On pastes they had never seen (round 9, measured once): 93.5% exact root cause and 96.8% right retry decisions, as the retry loop makes them, on 31 issue-thread pastes; 87.5% and 95.0% on 40 of the newest uv, pixi, conda, mamba and poetry wordings')
  })

  it('renders nothing from a results file measured before the unseen sets existed', () => {
    expect(accuracySections({ ...figure, unseen: undefined } as unknown as AccuracyFigure)).toEqual({})
  })

  it('says so when the final parts were measured again after a later change', () => {
    const again = accuracySections({ ...figure, remeasured: 'a change' })
    expect(again['bench-accuracy']).toContain('the round 9 final parts were measured once, after every rule change of round 9, and again after a change.')
    expect(again['bench-accuracy']).toContain('(labelled and committed first; measured twice: once when written, again after a later change, never tuned on)')
    expect(again['bench-diagnosis']).toMatch(/^On pastes they had never seen \(round 9, measured again after a later change, never tuned on\): 93\.5%/)
  })
})
