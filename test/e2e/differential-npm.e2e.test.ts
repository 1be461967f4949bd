import { describeMatrix } from '../helpers/differential-matrix.js'

// The rows of npm (test/helpers/differential-matrix.ts).
describeMatrix(['npm'])
