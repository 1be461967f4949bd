import { describeMatrix } from '../helpers/differential-matrix.js'
import { command } from '../helpers/requirements.js'

// The rows of pdm and poetry (test/helpers/differential-matrix.ts): `pdm lock` and `poetry lock`. Neither goes
// through the relay, by design (their subjects say why: pdm 2.2 writes download URLs into pdm.lock, and poetry cannot
// be pointed at another index for one run). Each survives a 503 and a reset on its own (measured), pdm a 429 too;
// neither a dead index nor a broken download.
const FAILS = { pdm: ['dead', 'break-80'], poetry: ['dead', 'break-80', '429'] } as const
describeMatrix(['pdm', 'poetry'], {
  needs: [command('pdm'), command('poetry')], relayed: () => false, goals: true,
  plainCompletes: entry => !(FAILS[entry.tool as keyof typeof FAILS] as readonly string[]).includes(entry.case.id),
})
