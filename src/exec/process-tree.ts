import { readdirSync, readFileSync, statSync } from 'node:fs'

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

/** A file by identity, as fstat gives it. */
export interface FileId {
  dev: number
  ino: number
}

/**
 * Processes other than resilient holding one of `files` open (a helper the tool started in the background still
 * writing to resilient's pipe or terminal after the tool died of an interrupt), read from /proc/<pid>/fd. Only this
 * user's processes can be read, and only those are looked at.
 */
export function listHolders(files: readonly FileId[]): number[] {
  if (!files.length) return []
  let entries: string[]
  try {
    entries = readdirSync('/proc').filter(entry => /^\d+$/.test(entry) && Number(entry) !== process.pid)
  } catch {
    return []
  }
  return entries.map(Number).filter(pid => {
    let fds: string[]
    try {
      fds = readdirSync(`/proc/${pid}/fd`)
    } catch {
      return false
    }
    return fds.some(fd => {
      try {
        const stat = statSync(`/proc/${pid}/fd/${fd}`)
        return files.some(file => file.dev === stat.dev && file.ino === stat.ino)
      } catch {
        return false
      }
    })
  })
}
