import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'

/** The part of node-pty's native module used here: openpty(3) and TIOCSWINSZ (node-pty src/unix/pty.cc). */
interface PtyNative {
  open(cols: number, rows: number): { master: number; slave: number; pty: string }
  resize(fd: number, cols: number, rows: number): void
}

/** A pseudo-terminal pair: the tool writes to `slave`, resilient reads `master`. */
export interface PseudoTerminal {
  master: number
  slave: number
  /** N of the slave's /dev/pts/N; undefined when the native module did not say. */
  index: number | undefined
  resize(cols: number, rows: number): void
}

let cached: PtyNative | null | undefined
let failure: string | undefined

/**
 * node-pty is an optional native dependency (no Linux prebuilds; it builds only where a compiler and Node's headers
 * are found): typed here rather than imported, so the type check passes without it, and pipes are used when it is
 * missing or fails to load.
 */
function loadNative(): PtyNative | null {
  if (cached !== undefined) return cached
  try {
    const module = createRequire(import.meta.url)('node-pty') as { native?: PtyNative | null }
    cached = module.native && typeof module.native.open === 'function' ? module.native : null
    if (!cached) failure = 'node-pty loaded without its native part (built by a newer or older resilient?)'
  } catch (error) {
    cached = null
    failure = (error as Error).message.split('\n')[0]
  }
  return cached
}

/** Whether pseudo-terminals can be opened here, and why not (for `resilient doctor`). */
export function pseudoTerminalSupport(): { ok: true } | { ok: false; reason: string } {
  return loadNative() ? { ok: true } : { ok: false, reason: failure ?? 'node-pty is not usable' }
}

/**
 * Opens a pseudo-terminal for the tool's stdout and stderr only. Its stdin stays the caller's own terminal and the
 * tool stays in the caller's process group and session: keys typed ahead stay with the shell, Ctrl-C and Ctrl-Z reach
 * it from the terminal itself, and the terminal's modes are never touched by resilient (docs/process.md).
 * Undefined when no pseudo-terminal can be opened.
 */
export function openPseudoTerminal(cols: number, rows: number): PseudoTerminal | undefined {
  const native = loadNative()
  if (!native) return undefined
  try {
    const { master, slave, pty } = native.open(cols > 0 ? cols : 80, rows > 0 ? rows : 24)
    // No output processing on this terminal: the tool's bytes reach the real terminal as written, and that one turns
    // "\n" into "\r\n" (ONLCR) once, as it would for the tool alone. Node cannot call tcsetattr(); stty(1) can.
    spawnSync('stty', ['-opost'], { stdio: [slave, 'ignore', 'ignore'], timeout: 5000 })
    const index = /^\/dev\/pts\/(\d+)$/.exec(pty ?? '')?.[1]
    return { master, slave, index: index === undefined ? undefined : Number(index), resize: (c, r) => c > 0 && r > 0 && native.resize(master, c, r) }
  } catch {
    return undefined
  }
}
