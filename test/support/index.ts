// Local index servers with fault injection: used by `resilient demo`, the e2e tests and `npm run bench`.
export { startPypiServer, type PypiServer, type Fault, type PypiServerOptions } from '../../src/demo/pypi-server.js'
export { buildWheel, normalizeName, type BuiltWheel } from '../../src/demo/wheel.js'
// How well the diagnosis does on sets it was not tuned on: `npm run bench` (bench/accuracy.mjs).
export { byFamily, catalogScore, leaveOneSourceOut, tunedScore, type LabelledCase, type Tally } from './measure.js'
export { startNpmRegistry, buildTarball, type NpmRegistry, type NpmRegistryOptions, type BuiltTarball, type NpmPackageSpec } from './npm-registry.js'
// The differential matrix of "never worse than the plain tool": the e2e test asserts it, `npm run bench` prints it.
export { CASES, type DifferentialCase, type Topology } from './differential/cases.js'
export { matrixEntries, runMatrix, type CaseResult, type MatrixEntry, type MatrixOptions } from './differential/run.js'
export { SUBJECTS, type Subject, type Want } from './differential/subjects.js'
export { judge, type RunOutcome, type Verdict } from './differential/verdict.js'
