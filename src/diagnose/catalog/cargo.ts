import { messages } from './types.js'

// cargo 1.95 runs here; its network failures come from curl (libcurl's error strings, lib/strerror.c) wrapped in
// `error: failed to download from `<url>`` and `Caused by:` lines. Captured against local servers where cargo runs
// here (test/fixtures/output/cargo/captured-*.txt); the file cites where cargo forms the words.
const NETWORK = { repo: 'rust-lang/cargo', file: 'src/cargo/util/network/http.rs, retry.rs', version: '1.95.0' }
const FLOCK = { repo: 'rust-lang/cargo', file: 'src/cargo/util/flock.rs', version: '1.95.0' }
const RESOLVER = { repo: 'rust-lang/cargo', file: 'src/cargo/core/resolver/errors.rs', version: '1.95.0' }
// Printed by cargo 1.95.0 run here (test/fixtures/output/cargo/captured-*.txt); the file that forms them was not read.
const CAPTURED = { repo: 'rust-lang/cargo', file: 'binary output, captured in test/fixtures/output/cargo/', version: '1.95.0 (run here)' }
const CLAP = { repo: 'clap-rs/clap', file: 'clap_builder/src/error/format.rs (cargo, uv and pixi parse their options with clap)', version: '4 (cargo 1.95.0, run here)' }
const CHECKSUM = { repo: 'rust-lang/cargo', file: 'src/cargo/sources/registry/download.rs', version: '1.95.0' }

export const CARGO = [
  ...messages(NETWORK, [
    ['any-timeout', '  [28] Timeout was reached (Operation too slow. Less than 10 bytes/sec transferred the last 30 seconds)'],
    ['any-dns', '  [6] Couldn\'t resolve host name (Could not resolve host: {host})'],
    ['any-connection', '  [7] Couldn\'t connect to server (Failed to connect to {host} port {port} after {n} ms: Couldn\'t connect to server)'],
    ['any-ssl', '  [60] SSL peer certificate or SSH remote key was not OK (SSL certificate problem: unable to get local issuer certificate)'],
    ['status', '  failed to get successful HTTP response from `{url}`, got {status}'],
  ]),
  ...messages(CAPTURED, [
    ['cargo-rust-version', 'error: rustc 1.95.0 is not supported by the following package:'],
    ['cargo-build-failure', 'error: failed to run custom build command for `{package} v{version} ({path})`'],
    ['cargo-version-conflict', 'failed to select a version for `{package}` which could resolve this conflict'],
  ]),
  ...messages(CLAP, [['any-usage-error', "error: unexpected argument '--no-such-flag' found"]]),
  ...messages(FLOCK, [['any-lock-busy', '    Blocking waiting for file lock on package cache']]),
  ...messages(RESOLVER, [['cargo-no-matching-package', 'error: no matching package named `{package}` found']]),
  ...messages(CHECKSUM, [['any-hash-mismatch', 'error: failed to verify the checksum of `{package} v{version}`']]),
]
