import { fstatSync, openSync, readFileSync, statSync } from 'node:fs'
import { answerReopens } from './reopen-watch.js'
import { isPipeOrSocket } from '../../files/stream-descriptor.js'
import { StreamCopy } from './stream-copy.js'

/** `/dev/fd/N`, `/proc/self/fd/N`, alone or after `=` or a short flag (`-r/dev/fd/63`, `--requirement=/dev/fd/63`). */
const FD_PATH = /(?:^|=|^-[A-Za-z])\/(?:dev\/fd|proc\/self\/fd)\/(\d+)$/

/** What `/proc/self/fdinfo/<fd>` says of a descriptor: its offset and whether it may be read. */
function fdInfo(fd: number): { pos: number; readable: boolean } | undefined {
  try {
    const text = readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8')
    const flags = Number.parseInt(/^flags:\s*(\d+)/m.exec(text)?.[1] ?? '', 8)
    // O_ACCMODE: 0 read-only, 1 write-only, 2 read-write.
    return { pos: Number(/^pos:\s*(\d+)/m.exec(text)?.[1] ?? 0), readable: (flags & 3) !== 1 }
  } catch {
    return undefined
  }
}

function isNamedPipe(arg: string): boolean {
  const path = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : arg
  if (!path.includes('/') || FD_PATH.test(arg) || path === '/dev/stdin') return false
  try {
    return statSync(path).isFIFO()
  } catch {
    return false
  }
}

export interface InputOptions {
  /** The tool's arguments as typed: `/dev/fd/N` among them are inputs to keep a copy of. */
  argv: readonly string[]
  /** How much of each stream to keep for a second run. */
  limitBytes: number
  /** Why what the tool read from a stream forbids a second run (an index chosen inside it); from the tool's adapter. */
  vet?: (text: string) => string | undefined
}

/**
 * The tool's input, kept so that a second run (a retry, `resilient run`'s re-run) reads the same bytes as the first.
 * Streams (stdin from a pipe or socket, `<(...)` arguments) pass through resilient with a bounded copy; a regular
 * file given as stdin is opened again from its start; a terminal or /dev/null needs nothing. Nothing here ever reads
 * a file the tool names: named pipes are left to the tool, and a second run is refused if one was given.
 */
export class ReplayableInput {
  private readonly streams: StreamCopy[] = []
  private readonly namedPipes: string[]
  private readonly stdinFilePos: number | undefined
  private runs = 0
  private failed: string | undefined
  private readonly vet: InputOptions['vet']

  constructor(options: InputOptions) {
    this.vet = options.vet
    // Streams the tool reads, each marked when the command line names it by a path the tool will open again.
    const fds = new Map<number, boolean>()
    if (isPipeOrSocket(0)) fds.set(0, false)
    for (const arg of options.argv) {
      const fd = /(?:^|=|^-[A-Za-z])\/dev\/stdin$/.test(arg) ? 0 : Number(FD_PATH.exec(arg)?.[1] ?? Number.NaN)
      if (fd === 0 ? fds.has(0) : fd > 2 && isPipeOrSocket(fd) && fdInfo(fd)?.readable) fds.set(fd, true)
    }
    for (const [fd, named] of fds) this.streams.push(new StreamCopy(fd, options.limitBytes, named))
    this.namedPipes = options.argv.filter(isNamedPipe)
    this.stdinFilePos = !fds.has(0) && isRegularFile(0) ? fdInfo(0)?.pos : undefined
  }

  /** Why a further run cannot be given the same input; undefined when it can. */
  refusal(): string | undefined {
    if (this.runs === 0) return undefined
    if (this.failed) return this.failed
    const stream = this.streams.map(copy => copy.refusal() ?? (this.vet && copy.bytesRead ? this.vet(copy.text()) : undefined)).find(Boolean)
    if (stream) return stream
    if (this.namedPipes.length) return `${this.namedPipes[0]} is a named pipe, which the tool has already read and resilient cannot read again for it`
    const pos = this.stdinFilePos === undefined ? undefined : fdInfo(0)?.pos
    if (pos !== undefined && pos !== this.stdinFilePos && this.stdinFilePos !== 0) return 'the tool read part of its standard input, a file resilient can only open again from its beginning'
    return undefined
  }

  /**
   * The descriptors of one run: the tool's fd → resilient's fd holding the tool's end, which the caller closes once
   * the tool is started. Call `detach` once the tool has exited.
   */
  async attach(): Promise<{ stdio: Map<number, number>; detach: () => void }> {
    this.runs++
    const stdio = new Map<number, number>()
    const detachers: (() => void)[] = []
    for (const stream of this.streams) {
      try {
        const attached = await stream.attach()
        stdio.set(stream.fd, attached.childFd)
        detachers.push(attached.detach)
      } catch (error) {
        // No pipe could be made (mkfifo missing): the tool reads the stream itself, and a second run cannot.
        this.failed ??= `resilient could not keep a copy of the input (${(error as Error).message})`
      }
    }
    // A file read directly through fd 0 moved the offset every process sharing it sees: a fresh open starts at 0.
    const pos = this.stdinFilePos === undefined || this.runs === 1 ? undefined : fdInfo(0)?.pos
    if (pos !== undefined && pos !== this.stdinFilePos && this.stdinFilePos === 0) {
      stdio.set(0, openSync('/proc/self/fd/0', 'r'))
    }
    return { stdio, detach: () => detachers.forEach(detach => detach()) }
  }

  /** While the tool runs (`pid`), lets it open an input of resilient's pipes again by path (src/exec/input/reopen-watch.ts). */
  watch(pid: number): () => void {
    const stops = this.streams.map(stream => answerReopens(pid, stream.fd, () => stream.pipeEnded))
    return () => stops.forEach(stop => stop())
  }

  /** Stops reading the streams for good, once no run is left. */
  close(): void {
    for (const stream of this.streams) stream.close()
  }
}

function isRegularFile(fd: number): boolean {
  try {
    return fstatSync(fd).isFile()
  } catch {
    return false
  }
}
