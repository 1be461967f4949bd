import { read } from 'node:fs'
import { writeAll } from './write-all.js'

/** Reads a pseudo-terminal's master until EIO (every writer gone, every byte delivered), passing each chunk on. */
export async function drainToEio(fd: number, targetFd: number, onChunk: (chunk: Buffer) => void): Promise<'end' | 'broken-pipe'> {
  const buffer = Buffer.alloc(64 * 1024)
  for (let idle = 0; idle < 500;) {
    const result = await new Promise<{ bytes: number; code?: string }>(resolve => read(fd, buffer, 0, buffer.length, null, (error, bytes) => resolve({ bytes, code: error?.code })))
    if (result.code === 'EAGAIN') {
      idle++
      await new Promise(resolve => setTimeout(resolve, 2))
      continue
    }
    if (result.code || result.bytes === 0) return 'end'
    const chunk = Buffer.from(buffer.subarray(0, result.bytes))
    onChunk(chunk)
    if ((await writeAll(targetFd, chunk))?.code === 'EPIPE') return 'broken-pipe'
  }
  return 'end'
}
