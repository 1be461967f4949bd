import type { RelayProtocol } from './context.js'
import { sendPageAsIs } from './page-transfer.js'
import { PROTOCOL_ADDRESSES } from './protocol-addresses.js'
import { onFiles, onPages } from './protocols.js'

// A canonical version as go asks a proxy for it: semver with a `v`, capitals escaped as `!x` (go.dev/ref/mod
// "Module proxies"), `+incompatible` allowed. Anything else before `.info` (a branch, a commit) is a query.
const CANONICAL = /^v\d+\.\d+\.\d+(?:-[0-9A-Za-z.!-]+)?(?:\+incompatible)?$/
const VERSIONED = /^(.+)\/@v\/([^/?]+)\.(info|mod|zip)(?:\?.*)?$/

/**
 * The GOPROXY protocol (go.dev/ref/mod#goproxy-protocol). Pages say what exists: `<module>/@v/list`, `<module>/@latest`,
 * and `.info` of a query that is not a version (a branch name: what it points to). Files are `.info`, `.mod` and
 * `.zip` of a canonical version, which go itself checks against go.sum and the checksum database; the relay has no
 * digest of them to check (go's h1: hashes cover the zip's files, not its bytes), so it checks none.
 *
 * The checksum database through the proxy (`sumdb/<name>/...`, cmd/go/internal/modfetch/sumdb.go): `supported` is
 * a page, the index's answer, so that go talks to the database the way it would without resilient (through the index
 * when the index proxies it, else directly); so is `latest`, the database's newest signed tree head, which changes
 * (a resume must never splice two sources' copies of it). The rest (`lookup`, tiles) does not change, and go verifies
 * it against the database's public key (golang.org/x/mod/sumdb note and tlog): content any source proxying it may serve.
 */
export const GOPROXY_PROTOCOL: RelayProtocol = {
  name: 'goproxy',
  ...PROTOCOL_ADDRESSES.goproxy,
  sendPage: sendPageAsIs,
  route(path, method) {
    if (method !== 'GET' && method !== 'HEAD') return { kind: 'other', upstream: onPages(path) }
    if (path.startsWith('sumdb/')) {
      return /^sumdb\/[^/]+\/(?:supported|latest)$/.test(path) ? { kind: 'page', upstream: onPages(path) } : { kind: 'file', path, upstream: onFiles(path) }
    }
    const versioned = VERSIONED.exec(path)
    if (versioned) return versioned[3] === 'info' && !CANONICAL.test(versioned[2]!) ? { kind: 'page', upstream: onPages(path) } : { kind: 'file', path, upstream: onFiles(path) }
    if (/\/@v\/list(?:\?.*)?$/.test(path) || /\/@latest(?:\?.*)?$/.test(path)) return { kind: 'page', upstream: onPages(path) }
    return { kind: 'other', upstream: onPages(path) }
  },
}
