import { createHash, getHashes, type Hash } from 'node:crypto'
import { DigestTable } from './digest-table.js'

/** A digest a file must have, as the index published it: PEP 503 `#sha256=`, PEP 691 `hashes`, npm `integrity`. */
export interface ExpectedHash {
  algorithm: string
  digest: Buffer
}

const SUPPORTED = new Set(getHashes())
// Strongest first: when an index gives several, one is checked, the strongest the machine has.
const STRENGTH = ['sha512', 'sha384', 'sha256', 'sha224', 'sha1', 'md5']

function entry(algorithm: string, digest: Buffer): ExpectedHash[] {
  const name = algorithm.toLowerCase()
  return SUPPORTED.has(name) && digest.length > 0 ? [{ algorithm: name, digest }] : []
}

/** `sha256=<hex>` (a PEP 503 fragment or a `data-core-metadata` value). */
export function hashFromFragment(fragment: string): ExpectedHash[] {
  const match = /^#?([a-z0-9]+)=([0-9a-f]+)$/i.exec(fragment)
  return match ? entry(match[1]!, Buffer.from(match[2]!, 'hex')) : []
}

/** PEP 691 `hashes`: `{ "sha256": "<hex>" }`. */
export function hashesFromObject(hashes: unknown): ExpectedHash[] {
  if (!hashes || typeof hashes !== 'object') return []
  return Object.entries(hashes).flatMap(([name, hex]) => typeof hex === 'string' && /^[0-9a-f]+$/i.test(hex) ? entry(name, Buffer.from(hex, 'hex')) : [])
}

/** npm's `dist.integrity` (Subresource Integrity, one or more `algo-base64`) and the legacy `dist.shasum` (sha1 hex). */
export function hashesFromNpmDist(integrity: unknown, shasum: unknown): ExpectedHash[] {
  const sri = typeof integrity === 'string' ? integrity.split(/\s+/).flatMap(part => {
    const match = /^(sha\d+)-([A-Za-z0-9+/=]+)(?:\?.*)?$/.exec(part)
    return match ? entry(match[1]!, Buffer.from(match[2]!, 'base64')) : []
  }) : []
  return sri.length ? sri : typeof shasum === 'string' && /^[0-9a-f]{40}$/i.test(shasum) ? entry('sha1', Buffer.from(shasum, 'hex')) : []
}

/** The one digest to check of several: the strongest. */
export function strongest(hashes: readonly ExpectedHash[]): ExpectedHash | undefined {
  return [...hashes].sort((a, b) => rank(a.algorithm) - rank(b.algorithm))[0]
}

const rank = (algorithm: string) => {
  const index = STRENGTH.indexOf(algorithm)
  return index < 0 ? STRENGTH.length : index
}

/** Checks a stream's bytes against an expected digest. */
export class Verifier {
  private readonly hash: Hash

  constructor(private readonly expected: ExpectedHash) {
    this.hash = createHash(expected.algorithm)
  }

  update(chunk: Buffer): void {
    this.hash.update(chunk)
  }

  matches(): boolean {
    return this.hash.digest().equals(this.expected.digest)
  }
}

/**
 * What the relay learned from the pages it served: relay path → the file's published digests. Bounded: an npm
 * install of hundreds of packages lists tens of thousands of versions; the oldest entries go first.
 */
export class HashBook {
  private readonly entries = new Map<string, ExpectedHash[]>()
  private readonly packages = new DigestTable()

  constructor(private readonly limit = 200_000) {}

  learn(path: string, hashes: readonly ExpectedHash[]): void {
    if (!hashes.length) return
    this.entries.delete(path)
    this.entries.set(path, [...hashes])
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value!)
  }

  /**
   * A conda package's sha256, from a repodata page: a channel lists a million of them, kept compact and apart from
   * the bounded entries above (src/relay/digest-table.ts).
   */
  learnSha256(path: string, digest: Buffer): void {
    this.packages.set(path, digest)
  }

  of(path: string): ExpectedHash | undefined {
    const hashes = this.entries.get(path)
    if (hashes) return strongest(hashes)
    const digest = this.packages.get(path)
    return digest && { algorithm: 'sha256', digest }
  }

  /** How many package digests the compact table holds, and its bytes. */
  get packageDigests(): { count: number; bytes: number } {
    return { count: this.packages.size, bytes: this.packages.bytes }
  }
}
