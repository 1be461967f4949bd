// The fault-injecting PEP 503 server lives in src/testing/ because `resilient demo` ships it; tests import it here.
export { startPypiServer, type PypiServer, type Fault } from '../../src/testing/pypi-server.js'
export { buildWheel, normalizeName, type BuiltWheel } from '../../src/testing/wheel.js'
