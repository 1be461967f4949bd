/**
 * Keeps the last `limit` bytes of a stream. Diagnosis reads only the tail, so a child printing gigabytes costs
 * at most `limit` bytes here (plus one chunk).
 */
export class TailBuffer {
  private chunks: Buffer[] = []
  private size = 0
  totalBytes = 0

  constructor(private readonly limit: number) {}

  push(chunk: Buffer | string): void {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    this.totalBytes += buffer.length
    this.chunks.push(buffer)
    this.size += buffer.length
    while (this.size - (this.chunks[0]?.length ?? 0) >= this.limit && this.chunks.length > 1) {
      this.size -= this.chunks.shift()!.length
    }
  }

  toString(): string {
    const all = Buffer.concat(this.chunks)
    return all.subarray(Math.max(0, all.length - this.limit)).toString('utf8')
  }
}
