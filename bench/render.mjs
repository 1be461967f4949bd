// The figures README.md and docs/benchmarks.md quote, rendered from bench/results.json (what `npm run bench --
// --write` measured in one run). test/unit/bench-docs.test.ts fails when the documents and the results differ.

const ms = value => (value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(1)} s`)
const s = value => `${value.toFixed(1)} s`
const ratio = value => value.toFixed(2)

/** Overhead of a wrapped run: against the plain tool's own time, and in units of a bare Node start-up. */
export function overhead(b) {
  const added = b.resilientMedianMs - b.plainMedianMs
  return { added, toTool: b.resilientMedianMs / b.plainMedianMs, toNode: added / b.nodeMedianMs }
}

import { matrixSummary, matrixTable } from './matrix-render.mjs'
import { accuracySections } from './accuracy-render.mjs'
import { perfTable } from './perf.mjs'
import { relayTable } from './relay.mjs'
import { registryTable } from './registry.mjs'
import { streamsTable } from './streams.mjs'

export function renderSections(results) {
  const { a, b, bWithoutExtraCa: bx, c, d, machine } = results
  const cost = overhead(b)
  const costx = overhead(bx)
  return {
    'bench-speed': `with a black-holed index, resilient gave up on it after ${s(a.firstAttemptSeconds)} and succeeded on a mirror in ${s(a.resilientSuccessSeconds)}, where plain pip failed after ${s(a.plainFailureSeconds)}`,
    'bench-overhead': `resilient adds about ${ms(cost.added)} to each run: ${ms(b.resilientMedianMs)} against plain pip's ${ms(b.plainMedianMs)} for a small \`pip download\` from a local index (${ratio(cost.toTool)}× the plain tool), which is ${ratio(cost.toNode)}× the start-up of a bare \`node -e 0\` (${ms(b.nodeMedianMs)}) in the same run, on ${machine.cores} cores at a load average of ${machine.loadAverage}`,
    'bench-table': [
      `Figures from one run of \`npm run bench -- --write\` (bench/results.json) on ${machine.date}: ${machine.cores} cores, Node ${machine.node}, ${machine.pip}, load average ${machine.loadAverage} at the start.`,
      '',
      '| figure | resilient | plain tool | ratio | target |',
      '| --- | --- | --- | --- | --- |',
      `| (a) black-holed primary + healthy mirror: time to **success** vs plain pip's time to **failure** (the first attempt gave up after ${s(a.firstAttemptSeconds)}) | ${s(a.resilientSuccessSeconds)} | ${s(a.plainFailureSeconds)} (fails) | ${ratio(a.ratio)} | ≤ 15 s |`,
      `| (b) healthy local index, \`pip download\` of a 200 kB wheel, median of ${b.runs} interleaved runs | ${ms(b.resilientMedianMs)} | ${ms(b.plainMedianMs)} | ${ratio(cost.toTool)} | ≤ 1.10${cost.toTool > 1.1 ? ' — **missed**' : ''} |`,
      `| (b) overhead (resilient − pip) in units of \`node -e 0\` (${ms(b.nodeMedianMs)}, same runs) | ${ms(cost.added)} | — | ${ratio(cost.toNode)} | — |`,
      `| (b) the same with \`NODE_EXTRA_CA_CERTS\` unset | ${ms(bx.resilientMedianMs)} | ${ms(bx.plainMedianMs)} | ${ratio(costx.toTool)} (overhead ${ratio(costx.toNode)}× \`node -e 0\`, ${ms(bx.nodeMedianMs)}) | ≤ 1.10${costx.toTool > 1.1 ? ' — **missed**' : ''} |`,
      `| (c) \`resilient --version\` vs \`node -e 0\`, median of ${c.runs} | ${ms(c.resilientVersionMedianMs)} | ${ms(c.nodeMedianMs)} | ${ratio(c.ratio)} | ≤ 1.30 |`,
      `| (d) peak RSS while the child prints ${d.bytes / 2 ** 30} GB through resilient | ${Math.round(d.peakRssMb)} MB (in ${s(d.seconds)}) | — | — | ≤ 100 MB |`,
    ].join('\n'),
    ...(results.perf && { 'bench-perf': perfTable(results.perf) }),
    ...(results.streams && { 'bench-streams': streamsTable(results) }),
    ...(results.matrix && { 'bench-matrix': matrixTable(results.matrix), 'bench-matrix-summary': matrixSummary(results.matrix) }),
    ...(results.relay && { 'bench-relay': relayTable(results.relay) }),
    ...(results.registry && { 'bench-registry': registryTable(results.registry) }),
    ...accuracySections(results.e),
  }
}

/** `text` with each `<!-- name:start -->…<!-- name:end -->` section replaced by its rendering. */
export function withSections(text, sections) {
  let result = text
  for (const [name, content] of Object.entries(sections)) {
    const pattern = new RegExp(`(<!-- ${name}:start -->)[\\s\\S]*?(<!-- ${name}:end -->)`)
    if (!pattern.test(result)) continue
    const block = content.includes('\n') ? `\n${content}\n` : content
    result = result.replace(pattern, (_, start, end) => `${start}${block}${end}`)
  }
  return result
}
