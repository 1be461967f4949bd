import { linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// A crate's rust-version is newer than the toolchain: "rustc 1.95.0 is not supported by the following package:
// x requires rustc 1.999" (older cargo: "package `x` cannot be built because it requires rustc 1.70 or newer").
export const cargoRustVersion = {
  id: 'cargo-rust-version',
  category: 'python_version',
  tools: ['cargo'],
  summary: 'A crate needs a newer Rust toolchain',
  match: failure => {
    const evidence = linesMatching(failure, /rustc [\d.]{1,20} is not supported by the following package|requires rustc [\d.]{1,20}(?: or newer)?\b/, 3)
    return evidence.length ? { evidence } : null
  },
  remedy: { kind: 'give-up', hint: 'Update the toolchain (rustup update stable), or pin an older release of the crate that supports this rustc (cargo update -p <crate> --precise <version>).' },
} satisfies Rule
