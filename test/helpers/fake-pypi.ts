// The fault-injecting PEP 503 server lives in src/demo/ because `resilient demo` ships it; tests import it here.
export { startPypiServer, type PypiServer, type Fault } from '../../src/demo/pypi-server.js'
export { buildWheel, normalizeName, type BuiltWheel } from '../../src/demo/wheel.js'
