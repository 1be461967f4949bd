import { describeMatrix } from '../helpers/differential-matrix.js'

// The rows of yarn berry and bun (test/helpers/differential-matrix.ts): the conditions every tool has, each of which
// the plain tools survive on their own (measured), so a plain run that fails is a broken setup.
describeMatrix(['berry', 'bun'], { plainCompletes: true })
