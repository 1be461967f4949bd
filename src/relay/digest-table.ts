/**
 * Relay path → sha256, for the million-odd packages a conda channel's repodata lists (conda-forge linux-64 and noarch
 * together): a Map of strings and Buffers would cost a few hundred bytes an entry; this costs 40 bytes a slot (an 8-byte
 * key, the 32-byte digest) in typed arrays, open addressing, at most 3/4 full.
 *
 * The key is a 64-bit hash of the path (two 32-bit FNV-1a lanes), not the path: two paths of one run sharing it
 * (odds about n²/2⁶⁵, 3·10⁻⁸ for a million paths) would give one of them the other's digest, and its file would then
 * fail the check and be refused, never passed on unchecked. Past `limit` entries nothing more is learned (the files
 * of later pages are then relayed with the tool's own check only), so memory stays bounded in a run that never ends.
 */
export class DigestTable {
  private slots = 1 << 4
  private keys = new Uint32Array(this.slots * 2)
  private digests = new Uint8Array(this.slots * 32)
  private used = new Uint8Array(this.slots)
  private count = 0

  constructor(private readonly limit = 4_000_000) {}

  get size(): number {
    return this.count
  }

  /** Bytes held by the table now. */
  get bytes(): number {
    return this.keys.byteLength + this.digests.byteLength + this.used.byteLength
  }

  set(path: string, digest: Buffer): void {
    if (digest.length !== 32) return
    const [high, low] = hashOf(path)
    let slot = this.find(high, low)
    if (!this.used[slot]) {
      if (this.count >= this.limit) return
      if ((this.count + 1) * 4 > this.slots * 3) {
        this.grow()
        slot = this.find(high, low)
      }
      this.used[slot] = 1
      this.keys[slot * 2] = high
      this.keys[slot * 2 + 1] = low
      this.count++
    }
    this.digests.set(digest, slot * 32)
  }

  get(path: string): Buffer | undefined {
    const slot = this.find(...hashOf(path))
    return this.used[slot] ? Buffer.from(this.digests.subarray(slot * 32, slot * 32 + 32)) : undefined
  }

  /** The slot holding this key, or the empty slot where it would go (linear probing). */
  private find(high: number, low: number): number {
    const mask = this.slots - 1
    let slot = low & mask
    while (this.used[slot] && (this.keys[slot * 2] !== high || this.keys[slot * 2 + 1] !== low)) slot = (slot + 1) & mask
    return slot
  }

  private grow(): void {
    const { keys, digests, used, slots } = this
    this.slots = slots * 2
    this.keys = new Uint32Array(this.slots * 2)
    this.digests = new Uint8Array(this.slots * 32)
    this.used = new Uint8Array(this.slots)
    for (let old = 0; old < slots; old++) {
      if (!used[old]) continue
      const slot = this.find(keys[old * 2]!, keys[old * 2 + 1]!)
      this.used[slot] = 1
      this.keys[slot * 2] = keys[old * 2]!
      this.keys[slot * 2 + 1] = keys[old * 2 + 1]!
      this.digests.set(digests.subarray(old * 32, old * 32 + 32), slot * 32)
    }
  }
}

/** Two 32-bit hashes of the path's UTF-16 code units: FNV-1a, and the same fold with murmur2's multiplier and another basis. */
function hashOf(path: string): [number, number] {
  let high = 0x811c9dc5
  let low = 0x050c5d1f
  for (let i = 0; i < path.length; i++) {
    const code = path.charCodeAt(i)
    high = Math.imul(high ^ code, 0x01000193) >>> 0
    low = Math.imul(low ^ code, 0x5bd1e995) >>> 0
  }
  // Spread the low lane's bits over the slot index (FNV's low bits vary least on similar endings).
  low = Math.imul(low ^ (low >>> 15), 0x2c1b3c6d) >>> 0
  return [high, (low ^ (low >>> 12)) >>> 0]
}
