import { describeMatrix } from '../helpers/differential-matrix.js'

// The rows of pnpm and yarn 1 (test/helpers/differential-matrix.ts).
describeMatrix(['pnpm', 'yarn'])
