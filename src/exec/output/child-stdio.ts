import { fstatSync } from 'node:fs'
import { isatty } from 'node:tty'
import { isPipeOrSocket } from '../../files/stream-descriptor.js'
import { forwardOutput, type ForwardEnd } from './forward-output.js'
import { OutputOrder, type RelayedStream } from './output-order.js'
import { heldPipe, heldTerminal, type OutputFile } from '../process-tree.js'
import { openPseudoTerminal, type PseudoTerminal } from './pty.js'
import { takeFifosWhenMade } from './fifos.js'
import { closeAll, openRealPipes, type RealPipe } from './real-pipe.js'
import type { ReplayableInput } from '../input/replayable-input.js'

export interface StdioRequest {
  /** resilient reads the tool's output (diagnosis, a missing module); otherwise the tool writes to `output` itself. */
  capture: boolean
  /** A pseudo-terminal is wanted when stdin, stdout and stderr are all terminals (the only case where it is faithful). */
  pty: boolean
  /** resilient's own descriptors the tool's stdout and stderr go to. */
  output: { stdout: number; stderr: number }
  /** The tool's stdin: resilient's own (inherit), none, or a replayable copy. */
  input: ReplayableInput | 'inherit' | 'ignore'
  /** Descriptors above 2 the caller passed to resilient, passed on unchanged (`3>file`, make's jobserver). */
  inheritedFds: readonly number[]
  terminalSize: () => { columns: number; rows: number }
  /**
   * A large output may be copied by a relay thread (src/exec/output/pipe-thread.ts), keeping its last `tailBytes` for the
   * diagnosis: false when something must see each chunk before it is written (a spinner that clears itself first).
   */
  relayLargeOutput: boolean
  tailBytes: number
  /** The tool's environment: its PATH finds the `cat` that a hand-off starts (hand-off.ts). */
  env: NodeJS.ProcessEnv
}

/** The descriptors of one run: what spawn() gets, and what resilient does once the tool has them. */
export interface ChildStdio {
  stdio: (number | 'ignore')[]
  pty?: PseudoTerminal
  /**
   * Closes resilient's copies of the tool's ends (call right after spawn) and starts copying output; `onChunk` is told
   * whether a chunk came from a stderr of its own (not merged with stdout).
   */
  started(onChunk: (chunk: Buffer, fromStderr: boolean) => void): Promise<ForwardEnd[]>
  /** Stops feeding input once the tool has exited. */
  detachInput(): void
  /**
   * The tool has exited, and something it left running still holds its output: output going to a terminal or a file
   * is handed off (forward-output.ts), as the plain tool's caller would not wait for that helper either. Output going
   * to a pipe is still waited for, as a shell pipeline's reader waits for every writer.
   */
  handOffOutput(): void
  /** The pipes or terminal the tool writes to: whoever still holds them keeps the run waiting. */
  outputFiles: OutputFile[]
  /** stderr is read on a pipe of its own. */
  separateStderr: boolean
}

/** The tool's output pipes, on the FIFOs the run's watchdog is making (output/fifos.ts) once they are made. */
async function openPipesOrNone(directions: ('from-child')[]): Promise<RealPipe[]> {
  try {
    return openRealPipes(directions, await takeFifosWhenMade(directions.length))
  } catch {
    return []
  }
}

/** Two descriptors lead to the same file (`>log 2>&1`, one terminal, one pipe): one pipe then keeps their order. */
function sameFile(a: number, b: number): boolean {
  try {
    const [x, y] = [fstatSync(a), fstatSync(b)]
    return x.dev === y.dev && x.ino === y.ino
  } catch {
    return false
  }
}

export async function prepareStdio(request: StdioRequest): Promise<ChildStdio> {
  const { output } = request
  const stdio: (number | 'ignore')[] = [request.input === 'ignore' ? 'ignore' : 0, output.stdout, output.stderr]
  for (const fd of request.inheritedFds) stdio[fd] = fd
  const attached = typeof request.input === 'object' ? await request.input.attach() : undefined
  for (const [fd, childEnd] of attached?.stdio ?? []) stdio[fd] = childEnd
  const toClose = [...(attached?.stdio.values() ?? [])]
  const sources: { fd: number; target: number; pty?: boolean; stderr?: boolean }[] = []
  const outputFiles: OutputFile[] = []
  let pty: PseudoTerminal | undefined
  if (request.capture) {
    const terminals = request.input !== 'ignore' && isatty(0) && isatty(output.stdout) && isatty(output.stderr)
    const size = request.terminalSize()
    pty = request.pty && terminals ? openPseudoTerminal(size.columns, size.rows) : undefined
    if (pty) {
      stdio[1] = stdio[2] = pty.slave
      // Without the terminal's number, whoever holds it after the tool is never taken for the tool's helper.
      if (pty.index !== undefined) outputFiles.push(heldTerminal(fstatSync(pty.slave), pty.master, pty.index))
      toClose.push(pty.slave)
      sources.push({ fd: pty.master, target: output.stdout, pty: true })
    } else {
      const merged = sameFile(output.stdout, output.stderr)
      // Without mkfifo(1) there is no pipe to give: the tool then writes to resilient's own descriptors, unread.
      const pipes = await openPipesOrNone(merged ? ['from-child'] : ['from-child', 'from-child'])
      const [out, err = out] = pipes
      if (out && err) {
        stdio[1] = out.child
        stdio[2] = err.child
        toClose.push(...pipes.map(pipe => pipe.child))
        sources.push({ fd: out.ours, target: output.stdout })
        if (!merged) sources.push({ fd: err.ours, target: output.stderr, stderr: true })
      }
    }
  }
  for (const source of sources) if (!source.pty) outputFiles.push(heldPipe(fstatSync(source.fd)))
  for (let fd = 0; fd < stdio.length; fd++) stdio[fd] ??= 'ignore'
  let handOff: () => void = () => {}
  const handOffWhen = new Promise<void>(resolve => { handOff = resolve })
  return {
    stdio,
    pty,
    started(onChunk) {
      closeAll(toClose)
      const order = new OutputOrder(onChunk)
      return Promise.all(sources.map(source => {
        const fromStderr = Boolean(source.stderr)
        // Not for a terminal: the pseudo-terminal path reads to EIO itself, and a terminal shows output at a person's pace.
        const relay = request.relayLargeOutput && !source.pty && !isatty(source.target)
          ? { tailBytes: request.tailBytes, watch: (stream: RelayedStream) => order.watch(stream, fromStderr) } : undefined
        const handOffToo = isPipeOrSocket(source.target) ? undefined : { when: handOffWhen, env: request.env }
        return forwardOutput(source.fd, source.target, { pty: source.pty, onChunk: chunk => order.read(chunk, fromStderr), relay, handOff: handOffToo })
      }))
    },
    detachInput: () => attached?.detach(),
    handOffOutput: () => handOff(),
    outputFiles,
    separateStderr: sources.some(source => source.stderr),
  }
}
