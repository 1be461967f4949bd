import { describeMatrix } from '../helpers/differential-matrix.js'

// The rows of yarn berry and bun (test/helpers/differential-matrix.ts). The plain tools survive every fault of theirs
// on their own (measured) but a dead index, so a plain run that fails elsewhere is a broken setup.
describeMatrix(['berry', 'bun'], { plainCompletes: entry => entry.case.id !== 'dead' })
