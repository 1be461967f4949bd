import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { listDescendants } from '../process-tree.js'
import { listSockets, socketInodes } from './tree-sockets.js'

/** What a process tree has done since it started, as counted so far. Both numbers only grow. */
export interface TreeCounters {
  /** Bytes the tree received from the network (see `counter`). */
  bytes: number
  /** CPU time of the tree, its reaped children included (a compiler that ran between two samples counts). */
  cpuSeconds: number
  /**
   * `tcp`: payload bytes received on the tree's TCP sockets (tcp_info `bytes_received`, read with `ss`).
   * `reads`: bytes passed to read() (`rchar` of /proc/<pid>/io), the fallback when `ss` is missing or fails. It counts file
   * and pipe reads too, and not recv(): Python (pip, uv's build backends) reads sockets with recv(), so with this
   * counter a trickle to pip shows 0 bytes and is left to pip's own read timeout. See docs/stall-detection.md.
   * `relay`: bytes resilient's relay received for the tool, counted by the relay itself (an attempt through it).
   */
  counter: 'tcp' | 'reads' | 'relay'
  /**
   * Whether the tool had a transfer under way at this sample, where that is known (the relay counts the tool's
   * requests still open): false between transfers, while the tool waits out its own retry delay, for instance.
   */
  transferring?: boolean
  /**
   * TCP connections of the tree that a sample saw receive data. With `tcp`, 0 means no transfer was seen (all were
   * shorter than the gap between samples), not that nothing was received. With `relay`: the requests it served.
   */
  connections: number
}

/** What a relay has passed to the tool so far: running totals. */
export interface RelayedCounts {
  bytes: number
  requests: number
  /** The tool's requests the relay is answering now. */
  open?: number
}

export interface TreeSampler {
  sample(): Promise<TreeCounters>
  /** The socket inodes the tree holds now: a cheap look (no `ss`) to tell when a connection opens. */
  openSockets?(): number[]
  /** The counts so far, read at once (a relay's): the summary then holds the very last byte. */
  countsNow?(): { bytes: number; connections: number }
}

// procfs reports times in USER_HZ, which is 100 on every Linux architecture (man 5 proc, "clock ticks").
const USER_HZ = 100

const read = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return undefined // the process ended while we looked
  }
}

/** Progress of a tree can be measured where procfs has per-process I/O counters: Linux. */
export function canSampleTrees(): boolean {
  return existsSync('/proc/self/io') && existsSync('/proc/self/stat')
}

/**
 * The tree of `root`, walked through /proc/<pid>/task/<tid>/children: it reads only the tree's own entries, where
 * listDescendants reads every process on the machine (7 ms against 1 ms a sample, measured with 165 processes).
 */
function treeOf(root: number): number[] {
  const pids = [root]
  for (let i = 0; i < pids.length; i++) {
    let tasks: string[]
    try {
      tasks = readdirSync(`/proc/${pids[i]}/task`)
    } catch {
      continue
    }
    for (const tid of tasks) {
      const children = read(`/proc/${pids[i]}/task/${tid}/children`)
      // A kernel without CONFIG_PROC_CHILDREN has no such file.
      if (children === undefined && i === 0) return [root, ...listDescendants(root)]
      for (const child of children?.split(' ') ?? []) if (child.trim()) pids.push(Number(child))
    }
  }
  return pids
}

/** CPU ticks of one process (utime + stime) and of its children it has reaped (cutime + cstime). */
export interface CpuTimes {
  own: number
  reaped: number
}

/**
 * Folds one sample's readings into `counted` (pid → times as last counted) and returns the ticks added since the
 * previous sample. A process that is gone (reaped, or reaped while this sample read its parent) reappears in its
 * parent's reaped time: what was counted for it is taken back, so it counts once. The result can be negative for one
 * sample (taken back before the parent shows the reaped time); the caller keeps the running sum, never clamping it.
 */
export function accountCpu(counted: Map<number, CpuTimes>, readings: Map<number, CpuTimes>): number {
  let ticks = 0
  for (const [pid, now] of readings) {
    const before = counted.get(pid) ?? { own: 0, reaped: 0 }
    ticks += now.own - before.own + now.reaped - before.reaped
    counted.set(pid, now)
  }
  for (const [pid, last] of counted) {
    if (readings.has(pid)) continue
    ticks -= last.own + last.reaped
    counted.delete(pid)
  }
  return ticks
}

/**
 * Samples the tree rooted at `root`. Each call adds what happened since the previous one, per process and per
 * socket, so processes and connections that come and go are counted while they live. A connection that opens and
 * closes between two samples is not seen (see docs/stall-detection.md). With `relayed`, bytes are the relay's count.
 */
export function createTreeSampler(root: number, relayed?: () => RelayedCounts): TreeSampler {
  const cpu = new Map<number, CpuTimes>()
  const reads = new Map<number, number>()
  const sockets = new Map<number, number>()
  let cpuTicks = 0
  // What samples report only grows, while the running sum may dip for one sample (see accountCpu).
  let reportedTicks = 0
  let readBytes = 0
  let tcpBytes = 0
  const connections = new Set<number>()
  let ssMissing = false

  const sampleProcesses = (pids: number[]) => {
    const readings = new Map<number, CpuTimes>()
    for (const pid of pids) {
      const stat = read(`/proc/${pid}/stat`)
      // Listed but gone by now: it counts as gone, in the same sample in which its parent may show it as reaped.
      if (!stat) continue
      // Fields after the command name: state is field 3, utime/stime/cutime/cstime are fields 14-17.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number)
      readings.set(pid, { own: fields[11]! + fields[12]!, reaped: fields[13]! + fields[14]! })
      const rchar = Number(/^rchar:\s*(\d+)/m.exec(read(`/proc/${pid}/io`) ?? '')?.[1] ?? Number.NaN)
      if (Number.isFinite(rchar)) readBytes += Math.max(0, rchar - (reads.get(pid) ?? 0))
      if (Number.isFinite(rchar)) reads.set(pid, rchar)
    }
    for (const pid of reads.keys()) if (!readings.has(pid)) reads.delete(pid)
    // Clamping each sample at 0 lost the taking back of a child reaped mid-sample and counted it twice.
    cpuTicks += accountCpu(cpu, readings)
    reportedTicks = Math.max(reportedTicks, cpuTicks)
  }

  const sampleSockets = async (pids: number[]) => {
    if (ssMissing) return
    const owned = new Set(pids.flatMap(socketInodes))
    if (owned.size === 0) return
    const listed = await listSockets()
    if (listed === 'missing') {
      ssMissing = true
      return
    }
    for (const inode of [...sockets.keys()]) if (!owned.has(inode)) sockets.delete(inode)
    for (const inode of owned) {
      const received = listed.get(inode)
      if (received === undefined) continue
      tcpBytes += Math.max(0, received - (sockets.get(inode) ?? 0))
      sockets.set(inode, received)
      connections.add(inode)
    }
  }

  if (relayed) {
    // The relay counts every byte it passes to the tool, short connections included: no `ss`, no descriptor
    // listings every 100 ms (openSockets is absent, so no fast sampling either). Counted from this attempt's start.
    const base = relayed()
    const countsNow = () => {
      const now = relayed()
      return { bytes: now.bytes - base.bytes, connections: now.requests - base.requests }
    }
    return {
      async sample() {
        sampleProcesses(treeOf(root))
        const open = relayed().open
        return { ...countsNow(), cpuSeconds: reportedTicks / USER_HZ, counter: 'relay', ...(open !== undefined && { transferring: open > 0 }) }
      },
      countsNow,
    }
  }

  return {
    async sample() {
      const pids = treeOf(root)
      sampleProcesses(pids)
      await sampleSockets(pids)
      return { bytes: ssMissing ? readBytes : tcpBytes, cpuSeconds: reportedTicks / USER_HZ, counter: ssMissing ? 'reads' : 'tcp', connections: connections.size }
    },
    openSockets: () => treeOf(root).flatMap(socketInodes),
  }
}
