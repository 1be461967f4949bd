import { messages } from './types.js'

// cargo 1.95 runs here; its network failures come from curl (libcurl's error strings, lib/strerror.c) wrapped in
// `error: failed to download from `<url>`` and `Caused by:` lines. cargo's source was not read here: the files are
// where cargo forms the words, and each template is checked against a capture of the binary (checkedAgainst).
const NETWORK = { repo: 'rust-lang/cargo', file: 'src/cargo/util/network/http.rs, retry.rs', version: '1.95.0', checkedAgainst: 'test/fixtures/output/cargo/captured-timeout.txt, captured-dns.txt, captured-connection.txt' }
const FLOCK = { repo: 'rust-lang/cargo', file: 'src/cargo/util/flock.rs', version: '1.95.0', checkedAgainst: 'test/fixtures/output/cargo/captured-lock-busy.txt' }
const RESOLVER = { repo: 'rust-lang/cargo', file: 'src/cargo/core/resolver/errors.rs', version: '1.95.0', checkedAgainst: 'test/fixtures/output/cargo/captured-package-not-found.txt' }
// Printed by cargo 1.95.0 run here (test/fixtures/output/cargo/captured-*.txt); the file that forms them was not read.
const CAPTURED = { repo: 'rust-lang/cargo', file: 'binary output, captured in test/fixtures/output/cargo/', version: '1.95.0 (run here)' }
const CLAP = { repo: 'clap-rs/clap', file: 'clap_builder/src/error/format.rs (cargo, uv and pixi parse their options with clap)', version: '4 (cargo 1.95.0, run here)' }
const CHECKSUM = { repo: 'rust-lang/cargo', file: 'src/cargo/sources/registry/download.rs', version: '1.95.0', checkedAgainst: 'test/fixtures/output/cargo/captured-hash-mismatch.txt' }

export const CARGO = [
  ...messages(NETWORK, [
    ['any-timeout', '  [28] Timeout was reached (Operation too slow. Less than 10 bytes/sec transferred the last 30 seconds)'],
    ['any-dns', '  [6] Could not resolve hostname (Could not resolve host: {host})'],
    ['any-connection', '  [7] Could not connect to server (Failed to connect to {host} port {port} after {n} ms: Could not connect to server)'],
    ['any-ssl', '  [60] SSL peer certificate or SSH remote key was not OK (SSL certificate problem: unable to get local issuer certificate)'],
    ['status', '  failed to get successful HTTP response from `{url}` ({ip}), got {status}'],
  ]),
  ...messages(CAPTURED, [
    ['cargo-rust-version', 'error: rustc 1.95.0 is not supported by the following package:'],
    ['cargo-build-failure', 'error: failed to run custom build command for `{package} v{version} ({path})`'],
    ['cargo-version-conflict', 'failed to select a version for `{package}` which could resolve this conflict'],
  ]),
  ...messages(CLAP, [['any-usage-error', "error: unexpected argument '--no-such-flag' found"]]),
  ...messages(FLOCK, [['any-lock-busy', '    Blocking waiting for file lock on package cache']]),
  ...messages(RESOLVER, [['cargo-no-matching-package', 'error: no matching package named `{package}` found']]),
  ...messages(CHECKSUM, [['any-hash-mismatch', '  failed to verify the checksum of `{package} v{version} (registry `local`)`']]),
]
