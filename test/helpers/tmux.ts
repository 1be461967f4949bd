import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { afterEach } from 'vitest'
import { linkLauncherBeside, waitFor, type StandIn } from './process-helpers.js'

/**
 * A real terminal: a tmux pane running `bash --norc` on a private server, typed into with send-keys and read with
 * capture-pane, as a person would use resilient. Each instance has its own server; `close()` ends it.
 */
export class Tmux {
  private readonly socket = `resilient-test-${randomBytes(4).toString('hex')}`

  constructor(env: Record<string, string>, size = { columns: 160, rows: 50 }) {
    this.tmux(['-f', '/dev/null', 'new-session', '-d', '-x', String(size.columns), '-y', String(size.rows), '-s', 'test', 'bash --norc --noprofile'], env)
    this.tmux(['set-option', '-g', 'history-limit', '50000'])
  }

  private tmux(args: string[], env?: Record<string, string>): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8', env: env ?? process.env, timeout: 10_000 })
  }

  /** Types `text` literally, then Enter unless `enter` is false. */
  type(text: string, enter = true): void {
    this.tmux(['send-keys', '-t', 'test', '-l', text])
    if (enter) this.tmux(['send-keys', '-t', 'test', 'Enter'])
  }

  /** Sends a key by tmux name: `C-c`, `C-z`. */
  key(name: string): void {
    this.tmux(['send-keys', '-t', 'test', name])
  }

  /** Everything the pane shows, scrollback included, with wrapped lines joined. */
  screen(): string {
    return this.tmux(['capture-pane', '-p', '-J', '-S', '-', '-t', 'test'])
  }

  async waitFor(pattern: RegExp, what: string, ms = 20_000): Promise<string> {
    try {
      await waitFor(() => pattern.test(this.screen()), what, ms)
    } catch (error) {
      throw new Error(`${(error as Error).message}; the screen:\n${this.screen().trimEnd()}`)
    }
    return this.screen()
  }

  close(): void {
    try {
      this.tmux(['kill-server'])
    } catch {
      // already gone
    }
  }
}

/**
 * For the terminal tests of one file: `terminalWith(tool)` opens a pane whose PATH starts with the stand-in's
 * directory, where `resilient` links to the launcher; every pane is closed after each test.
 */
export function standInTerminals(): (tool: StandIn) => Tmux {
  const panes: Tmux[] = []
  afterEach(() => panes.splice(0).forEach(pane => pane.close()))
  return tool => {
    linkLauncherBeside(tool)
    const pane = new Tmux({ ...tool.env, PS1: '$ ', TERM: 'xterm-256color' })
    panes.push(pane)
    return pane
  }
}
