import { closeSync, openSync, readSync } from 'node:fs'
import { lookupProgram } from '../tools/argv/which.js'

/** A program that cannot run, with the shell's exit status (126 found but not runnable, 127 not found). */
export interface ProgramFailure {
  exitCode: 126 | 127
  message: string
}

/** Resolves argv[0] once, as the shell would, so the program run is the one found: no retry along PATH. */
export function resolveProgram(name: string, env: NodeJS.ProcessEnv, cwd?: string): { path: string } | ProgramFailure {
  const found = lookupProgram(name, env, { cwd })
  if (found.kind === 'found') return { path: found.path }
  if (found.kind === 'not-executable') return { exitCode: 126, message: `${found.path}: Permission denied (the file is not executable)` }
  return { exitCode: 127, message: `${name}: command not found` }
}

/** The interpreter named on a script's `#!` line, if any. */
export function interpreterOf(path: string): string | undefined {
  let fd: number | undefined
  try {
    fd = openSync(path, 'r')
    const head = Buffer.alloc(256)
    const line = head.subarray(0, readSync(fd, head, 0, head.length, 0)).toString('utf8').split('\n')[0]!
    return line.startsWith('#!') ? line.slice(2).trim().split(/\s+/)[0] : undefined
  } catch {
    return undefined
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/**
 * Why a found program did not start, worded as bash words it (execute_cmd.c), with its status. execve() fails with
 * ENOENT for an existing script whose interpreter is missing (a virtualenv whose Python was removed): bash exits 127
 * "cannot execute: required file not found"; any other failure to execute is 126.
 */
export function spawnFailure(path: string, error: NodeJS.ErrnoException | undefined): { exitCode: number; spawnError: string } {
  if (error?.code === 'ENOENT') {
    const interpreter = interpreterOf(path)
    return { exitCode: 127, spawnError: interpreter ? `${path}: cannot execute: its interpreter ${interpreter} does not exist` : `${path}: cannot execute: required file not found` }
  }
  if (error?.code === 'EACCES') return { exitCode: 126, spawnError: `${path}: Permission denied` }
  return { exitCode: 126, spawnError: `${path}: cannot execute: ${error?.message ?? 'unknown error'}` }
}
