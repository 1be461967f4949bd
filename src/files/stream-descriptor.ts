import { fstatSync } from 'node:fs'

/** `fd` is a pipe (anonymous or named) or a socket: a stream read or written once, not a file or a terminal. */
export function isPipeOrSocket(fd: number): boolean {
  try {
    const stat = fstatSync(fd)
    return stat.isFIFO() || stat.isSocket()
  } catch {
    return false
  }
}
