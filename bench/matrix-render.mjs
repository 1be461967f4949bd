// The differential matrix as the bench prints it and the documents quote it (measured by bench/matrix.mjs). Pure: the
// unit tests render bench/results.json with it.

const median = values => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN

/** Counts, and time ratios where both succeeded. */
export function matrixTotals(cases) {
  const count = verdict => cases.filter(entry => entry.verdict === verdict).length
  const both = cases.filter(entry => entry.plain.exitCode === 0 && entry.resilient.exitCode === 0)
  const rescued = cases.filter(entry => entry.plain.exitCode !== 0 && entry.resilient.exitCode === 0).length
  const aimed = cases.filter(entry => entry.aim)
  return { cases: cases.length, won: count('won'), equal: count('equal'), lost: count('lost'), rescued,
    medianRatio: median(both.map(entry => entry.resilient.ms / entry.plain.ms)), maxExtraMs: Math.max(0, ...both.map(entry => entry.resilient.ms - entry.plain.ms)),
    aimed: aimed.length, aimsMet: aimed.filter(entry => entry.aim.met).length, notWonByDesign: aimed.filter(entry => entry.aim.notWon).length }
}

/**
 * For a case resilient should win with a mirror (one 503, a dead index, a break at 80 %): whether it won as the goal
 * says, else why not (the tool's reason by design, where there is one).
 */
export function aimCell(entry) {
  if (!entry.aim) return ''
  if (entry.aim.met) return `goal met: ${entry.aim.why}`
  return `**not won**: ${entry.aim.why}${entry.aim.notWon ? `; by design: ${entry.aim.notWon}` : ''}`
}

const sec = ms => `${(ms / 1000).toFixed(1)} s`
const outcome = run => `${run.exitCode === 0 ? 'ok' : `exit ${run.exitCode}`}, ${sec(run.ms)}`
const kB = bytes => `${Math.round(bytes / 1000)} kB`
/**
 * What resilient's servers sent, as a ratio to what the plain tool's did (a failover, a hedge or a retry fetches more);
 * in kB where the plain tool fetched next to nothing before it failed (a page, an error), where a ratio would say nothing.
 */
const fetched = entry => !entry.resilient.bytes && !entry.plain.bytes ? '—'
  : entry.plain.bytes >= 10_000 ? `${(entry.resilient.bytes / entry.plain.bytes).toFixed(2)}×` : `${kB(entry.resilient.bytes)}${entry.plain.bytes ? ` (plain: ${kB(entry.plain.bytes)})` : ''}`
const listed = installed => installed?.length ? installed.join(', ') : 'nothing'

/**
 * What resilient installed (where the plain tool installed something else, that too), and what else the case
 * checked: the files a second run fetched again, the requests for a private name that reached the mirror.
 */
export function installedCell(entry) {
  const { plain, resilient } = entry
  if (!resilient.installed) return '—'
  const differs = plain.exitCode === 0 && listed(plain.installed) !== listed(resilient.installed)
  return [
    `${listed(resilient.installed)}${differs ? ` (plain: ${listed(plain.installed)})` : ''}`,
    ...resilient.refetched !== undefined ? [`second run: ${resilient.refetched} file(s) fetched again (plain: ${plain.refetched ?? '—'})`] : [],
    ...resilient.leaked ? [`${resilient.leaked} request(s) for the private name reached the mirror`] : [],
  ].join('; ')
}

export function formatMatrix(cases) {
  const totals = matrixTotals(cases)
  return [
    ...cases.map(entry => `(matrix) ${entry.verdict.padEnd(5)} ${entry.id} · ${entry.tool} · ${entry.topology}: plain ${outcome(entry.plain)}; resilient ${outcome(entry.resilient)}, ${entry.resilient.attempts} attempt(s)${entry.resilient.relayed ? ' through the relay' : ''}, bytes ${fetched(entry)}; installed ${installedCell(entry)}${entry.verdict === 'lost' ? ` — ${entry.why}` : ''}${entry.aim ? `; ${aimCell(entry).replace(/\*\*/g, '')}` : ''}`),
    `(matrix) ${totals.cases} cases: ${totals.won} won, ${totals.equal} equal, ${totals.lost} lost; where both succeeded, resilient's time was ${totals.medianRatio.toFixed(2)}× the plain tool's (median), and at most ${sec(totals.maxExtraMs)} more`,
    `(matrix) ${totals.aimed} cases resilient should win with a mirror: ${totals.aimsMet} won as the goal says, ${totals.aimed - totals.aimsMet} not (${totals.notWonByDesign} of them by design)`,
  ]
}

/** The README's sentence. */
export function matrixSummary(matrix) {
  const totals = matrixTotals(matrix.cases)
  return `in the differential matrix (${totals.cases} cases, ${matrix.machine.date}), resilient lost ${totals.lost === 0 ? 'none' : totals.lost}: it won ${totals.won} (${totals.rescued} of them installs the plain tool failed) and equalled ${totals.equal}; where both succeeded, its time was ${totals.medianRatio.toFixed(2)}× the plain tool's (median), and at most ${sec(totals.maxExtraMs)} more`
}

/** docs/benchmarks.md's table: one row per case. */
export function matrixTable(matrix) {
  const totals = matrixTotals(matrix.cases)
  const row = (...cells) => `| ${cells.join(' | ')} |`
  return [
    `One run of \`npm run bench -- --only=matrix --write\` on ${matrix.machine.date}: ${matrix.machine.cores} cores, Node ${matrix.machine.node}, ${matrix.machine.pip}, load average ${matrix.machine.loadAverage} at the start. ${totals.cases} cases: **${totals.won} won, ${totals.equal} equal, ${totals.lost} lost**; where both succeeded, resilient's time was ${totals.medianRatio.toFixed(2)}× the plain tool's (median), and at most ${sec(totals.maxExtraMs)} more.${totals.aimed ? ` Of the ${totals.aimed} cases resilient should win with a mirror (one 503, a dead index, a break at 80 %), ${totals.aimsMet} were won as that goal says, ${totals.aimed - totals.aimsMet} not (${totals.notWonByDesign} of them by design: the verdict says why).` : ''}`,
    '',
    row('network condition', 'tool', 'sources', 'plain tool', 'resilient', 'attempts', 'bytes fetched', 'installed', 'verdict'),
    row('---', '---', '---', '---', '---', '---', '---', '---', '---'),
    ...matrix.cases.map(entry => row(entry.fault, entry.tool, entry.topology === 'sole' ? 'the index alone' : 'index + mirror', outcome(entry.plain),
      `${outcome(entry.resilient)}${entry.resilient.relayed ? ', relay' : ''}`, String(entry.resilient.attempts), fetched(entry), installedCell(entry),
      `${entry.verdict === 'lost' ? '**lost**' : entry.verdict}${entry.aim ? `; ${aimCell(entry)}` : ''}`)),
  ].join('\n')
}
