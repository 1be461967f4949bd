import { spawnSync } from 'node:child_process'
import { constants } from 'node:os'

/**
 * Signals resilient listens for while it runs, and passes on to the tool. SIGUSR1 is among them so that it can never
 * start Node's inspector (Node's default for it); SIGTSTP and SIGCONT are job control (Ctrl-Z, `fg`); SIGWINCH is a
 * terminal resize. SIGPIPE is not: Node ignores it (src/node.cc) and a broken pipe is handled as an error instead.
 */
export const HANDLED_SIGNALS = [
  'SIGHUP', 'SIGINT', 'SIGQUIT', 'SIGTERM', 'SIGUSR1', 'SIGUSR2', 'SIGALRM', 'SIGVTALRM', 'SIGPROF', 'SIGXCPU',
  'SIGTSTP', 'SIGCONT', 'SIGWINCH',
] as const satisfies readonly NodeJS.Signals[]

/**
 * What a terminal sends to its whole foreground process group (the line discipline's ISIG characters and a hangup).
 * When the tool shares resilient's group, it already received these: sending them again would deliver them twice.
 */
export const TERMINAL_SIGNALS: ReadonlySet<NodeJS.Signals> = new Set(['SIGINT', 'SIGQUIT', 'SIGTSTP', 'SIGHUP', 'SIGWINCH'])

/** Signals whose default action does not end a process (signal(7)); any other one received counts as an interrupt. */
const HARMLESS: ReadonlySet<NodeJS.Signals> = new Set(['SIGCHLD', 'SIGCONT', 'SIGSTOP', 'SIGTSTP', 'SIGTTIN', 'SIGTTOU', 'SIGURG', 'SIGWINCH'])

/**
 * Signals whose default action dumps core. Re-raising one on resilient would write a core file of Node itself; coreutils'
 * timeout(1) avoids that with setrlimit(RLIMIT_CORE, 0), which Node cannot call, so resilient exits 128+n instead.
 */
const DUMPS_CORE: ReadonlySet<NodeJS.Signals> = new Set(['SIGQUIT', 'SIGILL', 'SIGTRAP', 'SIGABRT', 'SIGBUS', 'SIGFPE', 'SIGSEGV', 'SIGXCPU', 'SIGXFSZ', 'SIGSYS'])

export function endsProcess(signal: NodeJS.Signals): boolean {
  return !HARMLESS.has(signal)
}

export function canReraise(signal: NodeJS.Signals): boolean {
  return endsProcess(signal) && !DUMPS_CORE.has(signal)
}

export function signalNumber(signal: NodeJS.Signals): number {
  return constants.signals[signal] ?? 0
}

/** The status a shell gives a process that `signal` ended: 128 + its number on this platform (130 for SIGINT). */
export function exitCodeForSignal(signal: NodeJS.Signals): number {
  return 128 + signalNumber(signal)
}

export function signalName(number: number): NodeJS.Signals | undefined {
  return (Object.entries(constants.signals) as [NodeJS.Signals, number][]).find(([, value]) => value === number)?.[0]
}

/**
 * The signals set in a `SigIgn:` mask of /proc/<pid>/status (hexadecimal, bit n-1 for signal n), as the launcher
 * read it before Node started. Only the classic signals 1-31: real-time ones have no name a shell's `trap` takes.
 */
export function parseSignalMask(hex: string | undefined): Set<NodeJS.Signals> {
  const ignored = new Set<NodeJS.Signals>()
  if (!hex || !/^[0-9a-f]+$/i.test(hex)) return ignored
  const mask = BigInt(`0x${hex}`)
  for (let number = 1; number < 32; number++) {
    const name = signalName(number)
    if (name && name !== 'SIGKILL' && name !== 'SIGSTOP' && (mask >> BigInt(number - 1)) & 1n) ignored.add(name)
  }
  return ignored
}

/** A POSIX shell name: dash and ash drop every variable whose name is not one from what they pass on. */
const SHELL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

let gnuEnv: boolean | undefined
/** Whether /usr/bin/env can ignore signals itself (GNU coreutils 8.31+, `--ignore-signal`): asked once, when needed. */
function envIgnoresSignals(): boolean {
  gnuEnv ??= spawnSync('/usr/bin/env', ['--ignore-signal=USR2', 'true'], { stdio: 'ignore', timeout: 5000 }).status === 0
  return gnuEnv
}

/**
 * The command that starts `argv` with `ignored` signals ignored. libuv resets every disposition to the default in
 * the child before exec (src/unix/process.c), so the caller's `nohup` or `trap '' INT` would be lost: a POSIX sh sets
 * them again (`trap ''` survives exec) and execs the tool in its place, same pid. Without ignored signals, no sh.
 * An environment with names sh would drop (`npm_config_@corp:registry`) goes through GNU env's `--ignore-signal`
 * instead, which passes every variable on; where there is none, the tool is started directly: its environment
 * whole matters more than a disposition (docs/process.md).
 */
export function withIgnoredSignals(file: string, args: readonly string[], ignored: ReadonlySet<NodeJS.Signals>, env: NodeJS.ProcessEnv = {}): { file: string; args: string[] } {
  if (!ignored.size) return { file, args: [...args] }
  const names = [...ignored].map(signal => signal.slice(3))
  if (Object.keys(env).every(name => SHELL_NAME.test(name))) return { file: '/bin/sh', args: ['-c', `trap '' ${names.join(' ')}; exec "$0" "$@"`, file, ...args] }
  // env reads a leading NAME=VALUE or option as its own: such a path goes to the tool directly.
  if (!file.includes('=') && !file.startsWith('-') && envIgnoresSignals()) return { file: '/usr/bin/env', args: [`--ignore-signal=${names.join(',')}`, file, ...args] }
  return { file, args: [...args] }
}
