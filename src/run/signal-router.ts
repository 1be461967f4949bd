import { readFileSync } from 'node:fs'
import type { Interrupts } from '../exec/interrupts.js'
import { canReraise, exitCodeForSignal, HANDLED_SIGNALS } from '../exec/signals.js'

/** How resilient ends: an exit code, or the signal the tool died of, re-raised on resilient itself. */
export interface ExitStatus {
  code: number
  signal?: NodeJS.Signals
}

let ignored: ReadonlySet<NodeJS.Signals> = new Set()
let current: Interrupts | undefined
const listeners = new Map<NodeJS.Signals, () => void>()

/**
 * Listens for every signal resilient passes on, from the first line of the entry: SIGUSR1 would otherwise open
 * Node's inspector on 127.0.0.1:9229. A signal the caller ignored stays ignored (Node reset it to the default at
 * start-up, so it must be listened for to be ignored). With a run in progress the signal goes to it; otherwise
 * resilient does what the signal's default action would have done.
 */
export function installSignalRouting(callerIgnored: ReadonlySet<NodeJS.Signals>): void {
  ignored = callerIgnored
  for (const signal of HANDLED_SIGNALS) {
    // V8's sampling profiler (`node --cpu-prof`) ticks with SIGPROF sent to this process: a listener would take them.
    if (signal === 'SIGPROF' && profiling()) continue
    const listener = () => route(signal)
    listeners.set(signal, listener)
    process.on(signal, listener)
  }
}

function profiling(): boolean {
  return [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some(arg => /^--(cpu-prof|prof)\b/.test(arg))
}

/** Sends signals to this run's Interrupts until the returned function is called. */
export function routeSignalsTo(interrupts: Interrupts): () => void {
  const previous = current
  current = interrupts
  return () => {
    current = previous
  }
}

function route(signal: NodeJS.Signals): void {
  if (ignored.has(signal)) return
  if (signal === 'SIGTSTP') return suspend()
  if (current) return current.raise(signal)
  if (signal !== 'SIGCONT' && signal !== 'SIGWINCH') exitBySignal(signal)
}

/**
 * Ctrl-Z: the tool is stopped first (when it does not share resilient's process group, the terminal did not stop it),
 * then resilient stops itself with the default action, so the shell sees an ordinary stopped job; `fg` continues
 * resilient here, and resilient continues the tool.
 */
function suspend(): void {
  current?.emit('suspend')
  raiseWithDefaultAction('SIGTSTP')
  process.on('SIGTSTP', listeners.get('SIGTSTP')!)
  current?.emit('resume')
}

/** Removes resilient's handling of `signal` (libuv then restores SIG_DFL) and sends it to itself. */
function raiseWithDefaultAction(signal: NodeJS.Signals): void {
  process.removeAllListeners(signal)
  process.kill(process.pid, signal)
}

/**
 * Ends resilient as `signal` would have, so that a shell loop stops on Ctrl-C as it does for the tool alone. For a
 * signal that dumps core (a core file of Node itself would help no one) or one the caller ignored, exits 128+n.
 */
export function exitBySignal(signal: NodeJS.Signals, code = exitCodeForSignal(signal)): void {
  process.exitCode = code
  if (canReraise(signal) && !ignored.has(signal)) raiseWithDefaultAction(signal)
}

/** Whether resilient is in the terminal's foreground process group: a background job must not read the terminal. */
export function inForeground(): boolean {
  try {
    // Fields after the command name: state, ppid, pgrp, session, tty_nr, tpgid (proc(5)).
    const stat = readFileSync('/proc/self/stat', 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return fields[2] === fields[5]
  } catch {
    return true
  }
}
