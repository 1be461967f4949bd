import { describeMatrix } from '../helpers/differential-matrix.js'

// The rows of pnpm and yarn 1 (test/helpers/differential-matrix.ts). Each survives every fault of its rows on its own
// (measured) but these: a dead index, and for yarn 1 a 429, which it takes for an answer (its request manager asks
// again after a 408 or a 5xx only). Elsewhere a plain run that fails is a broken setup. The goals asserted are those
// won by completing where the tool fails: the others rest on half its time, the bench's to measure.
const FAILS = { pnpm: ['dead'], yarn: ['dead', '429'] } as const
const plainFails = (entry: { tool: string; case: { id: string } }) => (FAILS[entry.tool as keyof typeof FAILS] as readonly string[]).includes(entry.case.id)
describeMatrix(['pnpm', 'yarn'], { plainCompletes: entry => !plainFails(entry), goals: plainFails })
