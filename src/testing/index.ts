// Local index servers with fault injection: used by `resilient demo`, the e2e tests and `npm run bench`.
export { startPypiServer, type PypiServer, type Fault, type PypiServerOptions } from './pypi-server.js'
export { buildWheel, normalizeName, type BuiltWheel } from './wheel.js'
