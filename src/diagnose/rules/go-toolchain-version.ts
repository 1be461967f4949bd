import { linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// A module needs a newer Go than the one running: go 1.19-1.20 add "note: module requires Go 1.22" under the
// compile errors; go 1.21+ refuse up front: "go: x requires go >= 1.22 (running go 1.21.0; GOTOOLCHAIN=local)".
export const goToolchainVersion = {
  id: 'go-toolchain-version',
  category: 'python_version',
  tools: ['go'],
  summary: 'A module needs a newer Go toolchain',
  match: failure => {
    const evidence = linesMatching(failure, /module requires Go [\d.]{1,20}|requires go >= [\d.]{1,20}/, 2)
    return evidence.length ? { evidence } : null
  },
  remedy: { kind: 'give-up', hint: 'Install the Go version the module asks for (or let go fetch it: GOTOOLCHAIN=auto), or pin an older release of the module (go get example.com/mod@v1.2.3).' },
} satisfies Rule
