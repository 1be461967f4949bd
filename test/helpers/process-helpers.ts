import { existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { execa } from 'execa'
import { isolatedEnv } from './isolated-env.js'

/**
 * The installed command: the sh launcher in front of Node (bin/resilient), as users start it. TEST_BUILD_BIN
 * names another build's command instead (to see these tests fail on an older one).
 */
export const LAUNCHER = process.env.TEST_BUILD_BIN || fileURLToPath(new URL('../../bin/resilient', import.meta.url))

export interface StandIn {
  dir: string
  /** A file the stand-in may append to (`$LOG` in its script). */
  log: string
  env: Record<string, string>
  lines(): string[]
}

/**
 * A stand-in tool: `script` (a sh body, or a full script with its own #! line) installed as `name` first on PATH in an
 * isolated environment, with `$LOG` naming a file it can record what it saw in.
 */
export function standIn(name: string, script: string, extraEnv: Record<string, string> = {}): StandIn {
  const dir = mkdtempSync(join(tmpdir(), 'resilient-standin-'))
  const log = join(dir, 'log')
  writeFileSync(join(dir, name), script.startsWith('#!') ? script : `#!/bin/sh\n${script}`, { mode: 0o755 })
  const base = isolatedEnv()
  return {
    dir,
    log,
    env: { ...base, PATH: `${dir}:${base.PATH}`, LOG: log, ...extraEnv },
    lines: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []),
  }
}

/** Puts `resilient` (the launcher) on PATH next to the stand-in. */
export function linkLauncherBeside(tool: StandIn): void {
  try {
    symlinkSync(LAUNCHER, join(tool.dir, 'resilient'))
  } catch {
    // linked already
  }
}

/** `bash -c <line>` with `resilient` on PATH next to the stand-in; returns what bash printed. */
export async function bashBeside(tool: StandIn, line: string, timeoutMs = 60_000) {
  linkLauncherBeside(tool)
  return execa('bash', ['-c', line], { env: tool.env, extendEnv: false, reject: false, timeout: timeoutMs, stdin: 'ignore' })
}

export async function waitFor(condition: () => boolean, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise(resolve => setTimeout(resolve, 50))
  }
}

/** A process as it is now: its pid and its start time (/proc/<pid>/stat field 22), or no start time once it is gone. */
export interface ProcessIdentity {
  pid: number
  start: string | undefined
}

const startTimeOf = (pid: number): string | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
  } catch {
    return undefined
  }
}

/** Each pid as the process holding it now: later, `gone` tells it from another process the kernel gave that pid to. */
export function identify(pids: readonly number[]): ProcessIdentity[] {
  return pids.map(pid => ({ pid, start: startTimeOf(pid) }))
}

/**
 * The process has ended (or is a zombie). A pid comes back within seconds on a busy machine (pid_max 32768 here, tens
 * of processes a second under the suite): a process with the same pid that started at another time is another one.
 */
export function gone({ pid, start }: ProcessIdentity): boolean {
  return !alive(pid) || start === undefined || startTimeOf(pid) !== start
}

/** Those of `processes` still running, with their command lines, for a failure's message. */
export function stillRunning(processes: readonly ProcessIdentity[]): string {
  const cmdline = (pid: number) => { try { return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim() } catch { return '?' } }
  return processes.filter(process => !gone(process)).map(({ pid }) => `${pid} (${cmdline(pid)})`).join(', ') || 'none'
}

/** The process exists and is not a zombie. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return false
  }
}


/** Peak resident memory of a running process, in MB (VmHWM), or 0 once it is gone. */
export function peakRssMb(pid: number): number {
  try {
    return Number(/VmHWM:\s*(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024
  } catch {
    return 0
  }
}
