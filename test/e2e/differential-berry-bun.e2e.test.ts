import { describeMatrix } from '../helpers/differential-matrix.js'

// The rows of yarn berry and bun (test/helpers/differential-matrix.ts).
describeMatrix(['berry', 'bun'])
