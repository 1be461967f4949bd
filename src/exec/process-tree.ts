import { readdirSync, readFileSync } from 'node:fs'

/** Descendants of `pid` (children first), read from /proc; empty where /proc is missing (macOS, Windows). */
export function listDescendants(pid: number): number[] {
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return []
  }
  const children = new Map<number, number[]>()
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // The command name may contain spaces and parentheses: fields start after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      const list = children.get(ppid) ?? []
      list.push(Number(entry))
      children.set(ppid, list)
    } catch {
      // the process ended while we looked
    }
  }
  const result: number[] = []
  const queue = [pid]
  while (queue.length) {
    for (const child of children.get(queue.shift()!) ?? []) {
      result.push(child)
      queue.push(child)
    }
  }
  return result
}

/** Sends `signal` to a process and everything it started, so nothing is left orphaned. */
export function signalTree(pid: number, signal: NodeJS.Signals): void {
  for (const target of [pid, ...listDescendants(pid)]) {
    try {
      process.kill(target, signal)
    } catch {
      // already gone
    }
  }
}
