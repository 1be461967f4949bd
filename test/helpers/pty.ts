import { createRequire } from 'node:module'
import { stripVTControlCharacters } from 'node:util'
import type { PtyModule, PtyProcess, PtySpawnOptions } from '../../src/exec/output/pty-module.js'
import { CLI } from './run-cli.js'

/**
 * node-pty for the tests that type into a real terminal, or why it cannot be loaded here. It is optional: npm drops
 * it when its native build fails (no compiler or no Node headers) and leaves it unbuilt when install scripts do not
 * run. Such tests skip, and say why once per file, so a machine without a compiler never fails the suite.
 */
export function loadTestPty(): { pty: PtyModule; skipReason?: undefined } | { pty?: undefined; skipReason: string } {
  try {
    return { pty: createRequire(import.meta.url)('node-pty') as PtyModule }
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0]
    return { skipReason: `node-pty is not usable here (${reason}); it builds during npm ci where a C++ compiler and Node's headers are available` }
  }
}

const loaded = loadTestPty()
export const pty = loaded.pty
export const ptySkipReason = loaded.skipReason
if (ptySkipReason) console.warn(`skipping the terminal tests of this file: ${ptySkipReason}`)

/** What to do once the screen (escape sequences removed) matches: type a string, or act on the terminal (a signal). */
export type TerminalStep = [RegExp, string | ((terminal: PtyProcess) => void)]

/**
 * Runs the built CLI in a real terminal and takes each step once the screen matches, in order. `typeDelayMs` waits
 * before typing; `ms` is the time from the last step to the exit.
 */
export function inTerminal(args: string[], steps: TerminalStep[], options: PtySpawnOptions & { timeoutMs?: number; typeDelayMs?: number }): Promise<{ exitCode: number; screen: string; ms: number }> {
  const { timeoutMs = 60_000, typeDelayMs = 0, ...spawnOptions } = options
  return new Promise((resolve, reject) => {
    const terminal = pty!.spawn('node', [CLI, ...args], spawnOptions)
    let screen = ''
    let stepAt = Date.now()
    const pending = [...steps]
    const timer = setTimeout(() => { terminal.kill(); reject(new Error(`timed out; the terminal showed:\n${screen}`)) }, timeoutMs)
    terminal.onData(data => {
      screen += data
      const next = pending[0]
      if (next && next[0].test(stripVTControlCharacters(screen))) {
        pending.shift()
        stepAt = Date.now()
        const [, action] = next
        if (typeof action !== 'string') action(terminal)
        else if (typeDelayMs) setTimeout(() => terminal.write(action), typeDelayMs)
        else terminal.write(action)
      }
    })
    terminal.onExit(({ exitCode }) => {
      clearTimeout(timer)
      resolve({ exitCode, screen: stripVTControlCharacters(screen), ms: Date.now() - stepAt })
    })
  })
}
