/**
 * The part of node-pty's API that resilient and its tests use, declared here so that type-checking never needs
 * node-pty installed. It is an optional native dependency without Linux prebuilds: its install script builds it with
 * node-gyp, which needs a compiler and Node's headers, and npm drops it silently when that fails (a fresh machine
 * without headers) or leaves it unbuilt when install scripts do not run (`--ignore-scripts`, npm 12's default).
 * The shapes follow node-pty 1.1's typings/node-pty.d.ts; test/unit/exec/pty-module.test.ts checks them against it
 * wherever node-pty is installed.
 */
export interface PtyModule {
  spawn(file: string, args: string[], options: PtySpawnOptions): PtyProcess
}

export interface PtySpawnOptions {
  /** The terminal type, exported to the child as TERM. */
  name?: string
  cols?: number
  rows?: number
  cwd?: string
  env?: { [name: string]: string | undefined }
}

/** node-pty's events are functions taking a listener and returning a handle that removes it. */
export type PtyEvent<T> = (listener: (event: T) => void) => { dispose(): void }

export interface PtyProcess {
  readonly pid: number
  readonly onData: PtyEvent<string>
  readonly onExit: PtyEvent<{ exitCode: number; signal?: number }>
  write(data: string): void
  resize(columns: number, rows: number): void
  kill(signal?: string): void
}
