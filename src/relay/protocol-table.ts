import { CARGO_PROTOCOL } from './protocol-cargo.js'
import { CONDA_PROTOCOL } from './protocol-conda.js'
import { GOPROXY_PROTOCOL } from './protocol-goproxy.js'
import { NPM_PROTOCOL } from './protocol-npm.js'
import { PYPI_PROTOCOL } from './protocol-pypi.js'
import type { RelayProtocol } from './context.js'
import type { RelayProtocolName } from './types.js'

/** Every index protocol the relay speaks, by name: a tool's adapter names its protocol (RelaySupport.protocol). */
export const PROTOCOLS = { pypi: PYPI_PROTOCOL, npm: NPM_PROTOCOL, goproxy: GOPROXY_PROTOCOL, cargo: CARGO_PROTOCOL, conda: CONDA_PROTOCOL } satisfies Record<RelayProtocolName, RelayProtocol>

export { CARGO_PROTOCOL, CONDA_PROTOCOL, GOPROXY_PROTOCOL, NPM_PROTOCOL, PYPI_PROTOCOL }
