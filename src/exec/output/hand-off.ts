import { spawn } from 'node:child_process'
import { readSync } from 'node:fs'
import { resolveProgram } from '../program.js'

/**
 * What the tool's pipe (or pseudo-terminal master) holds right now, read without waiting, up to `limitBytes`; `ended`
 * when its end was reached (every writer gone: end of file, or EIO on a master). resilient's end is non-blocking
 * (libuv made it so), so an empty pipe answers EAGAIN at once.
 */
export function readWhatIsThere(fd: number, limitBytes: number): { chunks: Buffer[]; ended: boolean } {
  const chunks: Buffer[] = []
  let total = 0
  while (total < limitBytes) {
    const buffer = Buffer.allocUnsafe(64 * 1024)
    let bytes: number
    try {
      bytes = readSync(fd, buffer, 0, buffer.length, null)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      return { chunks, ended: code !== 'EAGAIN' && code !== 'EWOULDBLOCK' }
    }
    if (bytes === 0) return { chunks, ended: true }
    chunks.push(buffer.subarray(0, bytes))
    total += bytes
  }
  return { chunks, ended: false }
}

/**
 * Gives what is left of the tool's output to a `cat` that outlives resilient: its stdin is resilient's end of the
 * pipe, its stdout resilient's own descriptor. A helper the tool left running (a build server, a background job)
 * then keeps writing where it would have written without resilient, and resilient ends with the tool, as the plain
 * tool's caller does. libuv makes a child's descriptors 0 to 2 blocking, so cat waits on the pipe as a shell's would.
 * False when no cat can be started (resilient then keeps copying itself).
 */
export function handOffTo(source: number, target: number, env: NodeJS.ProcessEnv): boolean {
  const cat = resolveProgram('cat', env)
  if (!('path' in cat)) return false
  try {
    // Its own session: no signal meant for the caller's job reaches it; it ends at the end of the pipe.
    const child = spawn(cat.path, [], { stdio: [source, target, 'ignore'], detached: true })
    child.on('error', () => {})
    child.unref()
    return child.pid !== undefined
  } catch {
    return false
  }
}
