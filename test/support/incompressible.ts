/**
 * `length` bytes that no compressor shrinks (the high bytes of a 32-bit linear congruential generator), the same for
 * the same `seed`: a package file that takes a while to transfer, made at test time without a fixture on disk.
 * Math.imul keeps the product in 32 bits: a plain `*` loses its low bits past 2^53 and falls into a short cycle
 * (2 MB that gzip made 27 kB).
 */
export function incompressibleBytes(length: number, seed: number): Uint8Array {
  let state = seed >>> 0
  return new Uint8Array(length).map(() => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) >>> 24)
}
