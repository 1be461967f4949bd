import { messages } from './types.js'

// bun 1.4.5 as installed (node_modules/bun): the words read with strings(1) in its binary, the whole lines captured
// against local registries (test/fixtures/output/bun/captured-*.txt). bun names the error (a Zig error name such as
// ConnectionRefused) before "downloading package manifest".
const INSTALL = { repo: 'oven-sh/bun', file: 'binary output (words read with strings(1), lines captured in test/fixtures/output/bun/)', version: '1.4.5' }

export const BUN = messages(INSTALL, [
  ['any-connection', 'ConnectionRefused downloading package manifest {package}'],
  ['any-dns', 'DNSResolveFailed downloading package manifest {package}'],
  ['npm-integrity', 'Integrity check failed for tarball: {package}'],
  ['npm-no-matching-version', 'No version matching "{range}" found for specifier "{package}" (but package exists)'],
  ['status', 'GET {url} - {status}'],
], 'error: ')
