import { describeMatrix } from '../helpers/differential-matrix.js'

// The rows of pip (test/helpers/differential-matrix.ts).
describeMatrix(['pip'])
