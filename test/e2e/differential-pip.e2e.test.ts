import { describeMatrix } from '../helpers/differential-matrix.js'

// The rows of pip (test/helpers/differential-matrix.ts). Plain pip survives every fault of its rows on its own
// (measured) but these: a broken download, a dead index, a hang under its own short timeout, and a mirror put first that
// lacks the version. Elsewhere a plain run that fails is a broken setup. Those rows' goals rest on completing where
// pip fails; one 503 is pip's own to survive at once (its subject's reason).
const FAILS = ['break-80', 'dead', 'hang-own-timeout', 'all-hang', 'lagging-mirror']
describeMatrix(['pip'], { plainCompletes: entry => !FAILS.includes(entry.case.id), goals: true })
