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
 * One of the tool's outputs, as resilient hands it out. Device and inode name a file only while it exists: once
 * resilient's own end is closed (the pipe read to its end, the pseudo-terminal's master closed), the filesystem may give
 * the same numbers to another program's pipe or file, or /dev/pts/N to another terminal. `stillOurs` says whether
 * resilient's end is still open, so that a match is the tool's output and not a stranger's file.
 */
export interface OutputFile extends FileId {
  stillOurs(): boolean
}

/** The file each of a process's descriptors leads to, read from /proc/<pid>/fd; empty when it cannot be read. */
function openFilesOf(pid: number | 'self'): FileId[] {
  let fds: string[]
  try {
    fds = readdirSync(`/proc/${pid}/fd`)
  } catch {
    return []
  }
  const files: FileId[] = []
  for (const fd of fds) {
    try {
      const { dev, ino } = statSync(`/proc/${pid}/fd/${fd}`)
      files.push({ dev, ino })
    } catch {
      // closed while we looked
    }
  }
  return files
}

const sameFile = (a: FileId, b: FileId) => a.dev === b.dev && a.ino === b.ino

/** A pipe (a FIFO) that resilient reads: its own read end is the same file, so it is ours while resilient holds it. */
export function heldPipe(file: FileId): OutputFile {
  return { dev: file.dev, ino: file.ino, stillOurs: () => openFilesOf('self').some(held => sameFile(held, file)) }
}

/**
 * The slave side of a pseudo-terminal whose master resilient holds as descriptor `master`: /dev/pts/`index` stays
 * this terminal while the master is open, which /proc/self/fdinfo tells (`tty-index`, Linux 4.7 and later; without
 * it, the terminal is never taken for ours).
 */
export function heldTerminal(slave: FileId, master: number, index: number): OutputFile {
  return {
    dev: slave.dev, ino: slave.ino,
    stillOurs: () => {
      try {
        return new RegExp(`^tty-index:\\s*${index}$`, 'm').test(readFileSync(`/proc/self/fdinfo/${master}`, 'utf8'))
      } catch {
        return false
      }
    },
  }
}

/**
 * Processes other than resilient holding one of `files` open (a helper the tool started in the background still
 * writing to resilient's pipe or terminal after the tool died of an interrupt), read from /proc/<pid>/fd. Only the
 * files resilient still holds are looked for, and the answer is dropped if resilient let one go while the others were
 * read: a file it no longer holds may already be someone else's.
 */
export function listHolders(files: readonly OutputFile[]): number[] {
  const ours = files.filter(file => file.stillOurs())
  if (!ours.length) return []
  let entries: string[]
  try {
    entries = readdirSync('/proc').filter(entry => /^\d+$/.test(entry) && Number(entry) !== process.pid)
  } catch {
    return []
  }
  const holders = entries.map(Number).filter(pid => openFilesOf(pid).some(held => ours.some(file => sameFile(held, file))))
  return ours.every(file => file.stillOurs()) ? holders : []
}
