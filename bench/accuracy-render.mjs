// Figure (e) as the documents quote it, rendered from what bench/accuracy.mjs measured (the `e` of bench/results.json):
// the table of docs/benchmarks.md and the sentence of README.md. Plain data in, text out: the unit tests import it
// without a build (test/unit/readme-claims.test.ts checks the documents against bench/results.json).

const pct = x => `${(100 * x).toFixed(1)}%`
const FAMILIES = ['pip', 'npm family', 'uv', 'conda family', 'poetry/pdm', 'cargo/go']
const FAMILY_NAMES = {
  pip: 'pip (pip, pipx, python)', 'npm family': 'npm family (npm, pnpm, yarn, yarn berry, bun)', uv: 'uv',
  'conda family': 'conda family (conda, mamba, micromamba, pixi)', 'poetry/pdm': 'poetry/pdm', 'cargo/go': 'cargo/go',
}

const row = (measure, tally) => `| ${measure} | ${tally.cases} | ${pct(tally.label)} | ${pct(tally.decision)} |`
const cell = tally => (tally ? `${tally.cases} · ${pct(tally.label)} · ${pct(tally.decision)}` : '—')

/**
 * How many times the final parts have been measured: once when the round's rules were done, and again after a later
 * change when one was measured on them (`e.remeasured`: what changed; no rule is ever tuned on them either way).
 */
const measured = e => (e.remeasured ? 'measured twice: once when written, again after a later change' : 'measured once')

/** The docs/benchmarks.md table of figure (e): the unseen sets' parts first, then what was tuned on. */
export function accuracyTable(e) {
  const round = e.round
  const names = Object.keys(e.unseen)
  const catalogCases = e.catalog.all.cases
  return [
    `Measured by \`node bench/accuracy.mjs --write\` on ${e.date} (bench/results.json); the round ${round} final parts were measured once, after every rule change of round ${round}${e.remeasured ? `, and again after ${e.remeasured}` : ''}.`,
    '',
    '| measure | cases | label | retry decision |',
    '| --- | --- | --- | --- |',
    ...names.map(name => row(`**${name}, round ${round} final part** (labelled and committed first; ${measured(e)}, never tuned on)`, e.unseen[name].final.all)),
    ...names.map(name => row(`${name}, round ${round} dev part (tuned on: not a blind figure)`, e.unseen[name].dev.all)),
    row(`leave-one-source-out over the development corpus (${e.sources} source repositories; wording learned only from the held-out source forgotten)`, e.folds.all),
    row(`message catalog from the tools' sources (${catalogCases} filled messages; right by construction of its test)`, e.catalog.all),
    ...Object.entries(e.earlier).map(([name, tally]) => row(`${name}, whole (blind once, since tuned on)`, tally.all)),
    row('held-out set of 2026-11-25, whole (blind once, since tuned on)', e.heldOut.all),
    row('the whole tuned corpus, for contrast (not the measure)', e.tuned.all),
    '',
    `The round ${round} final parts per tool family (cases · label · decision):`,
    '',
    `| family | ${names.map(name => `${name}, final`).join(' | ')} |`,
    `| --- | ${names.map(() => '---').join(' | ')} |`,
    ...FAMILIES.filter(family => names.some(name => e.unseen[name].finalByFamily[family]))
      .map(family => `| ${FAMILY_NAMES[family]} | ${names.map(name => cell(e.unseen[name].finalByFamily[family])).join(' | ')} |`),
  ].join('\n')
}

/** README's sentence on the unseen sets: the final parts' percentages (one decimal, never rounded up to a goal), sizes, round. */
export function accuracySentence(e) {
  const [issues, newest] = [e.unseen['issue pastes'].final.all, e.unseen['newest wordings'].final.all]
  return `On pastes they had never seen (round ${e.round}, ${e.remeasured ? 'measured again after a later change, never tuned on' : 'measured once'}): ${pct(issues.label)} exact root cause and ${pct(issues.decision)} right retry decisions, as the retry loop makes them, on ${issues.cases} issue-thread pastes; ${pct(newest.label)} and ${pct(newest.decision)} on ${newest.cases} of the newest uv, pixi, conda, mamba and poetry wordings`
}

/** The sections of figure (e), when `e` holds the unseen sets (an older results.json does not). */
export function accuracySections(e) {
  if (!e?.unseen) return {}
  return { 'bench-accuracy': accuracyTable(e), 'bench-diagnosis': accuracySentence(e) }
}
