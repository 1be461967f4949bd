// Local index servers with fault injection: used by `resilient demo`, the e2e tests and `npm run bench`.
export { startPypiServer, type PypiServer, type Fault, type PypiServerOptions } from './pypi-server.js'
export { buildWheel, normalizeName, type BuiltWheel } from './wheel.js'
// The message catalog and what the generated tests and `npm run bench` (bench/accuracy.mjs) do with it.
export { CATALOG, type Message } from '../diagnose/catalog/index.js'
export { decorate, DECORATIONS, fillTemplate, placeholdersOf, PLACEHOLDER_VALUES } from '../diagnose/catalog/fill.js'
export { expectedRule } from '../diagnose/catalog/expected.js'
export { normalizeFailure } from '../diagnose/normalize.js'
export { isRetryableWith, DEFAULT_REMEDIES } from '../diagnose/remedies.js'
