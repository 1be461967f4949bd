import { execFile } from 'node:child_process'
import { readdirSync, readlinkSync } from 'node:fs'

// The network side of tree-counters.ts: which sockets a process holds, and what each TCP socket received.

/** Parses `ss -tine` output into socket inode → bytes received. Sockets that received nothing have no counter. */
export function parseSocketBytes(output: string): Map<number, number> {
  const result = new Map<number, number>()
  let inode: number | undefined
  for (const line of output.split('\n')) {
    // A socket is a line of addresses (with `ino:`), then an indented line of tcp_info.
    if (!/^\s/.test(line)) inode = Number(/\bino:(\d+)/.exec(line)?.[1] ?? 0) || undefined
    const received = /\bbytes_received:(\d+)/.exec(line)?.[1]
    if (inode && received) result.set(inode, Number(received))
  }
  return result
}

/** Bytes received by every TCP socket on the machine, by inode (`ss`, iproute2); `missing` where `ss` cannot run. */
export function listSockets(): Promise<Map<number, number> | 'missing'> {
  return new Promise(resolve => {
    execFile('ss', ['-tinHe'], { timeout: 2000, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, LC_ALL: 'C' } }, (error, stdout) => {
      // Missing, or unable to open a netlink socket (some sandboxes): count reads instead.
      if (error && !stdout) resolve('missing')
      else resolve(parseSocketBytes(stdout ?? ''))
    })
  })
}

/** The socket inodes among the open descriptors of `pid` (none when it ended or cannot be read). */
export function socketInodes(pid: number): number[] {
  let fds: string[]
  try {
    fds = readdirSync(`/proc/${pid}/fd`)
  } catch {
    return []
  }
  return fds.flatMap(fd => {
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1]
      return inode ? [Number(inode)] : []
    } catch {
      return []
    }
  })
}
