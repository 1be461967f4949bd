import { pseudoTerminalSupport } from '../exec/output/pty.js'
import type { Section } from './types.js'

/**
 * node-pty, which gives the tool a pseudo-terminal when resilient runs in one. Optional and native without Linux
 * prebuilds: npm drops it silently where its build cannot run (no compiler or Node headers), or leaves it unbuilt
 * when install scripts are off. Nothing breaks without it, but the tool then writes to pipes.
 */
export function checkTerminal(support: () => ReturnType<typeof pseudoTerminalSupport> = pseudoTerminalSupport): Section {
  const found = support()
  if (found.ok) return { title: 'Terminal', lines: ['node-pty: loaded (in a terminal, the tool keeps its colours and progress bars)'], data: { nodePty: true }, problems: [] }
  return {
    title: 'Terminal',
    lines: [`node-pty: not usable (${found.reason})`],
    data: { nodePty: false, reason: found.reason },
    problems: [{
      severity: 'warning',
      area: 'terminal',
      message: 'node-pty is missing or not built, so in a terminal the tool runs through pipes: it prints no colours and no progress bars, and a tool that asks questions may not see a terminal (nothing else changes).',
      fix: 'Install a compiler and Node\'s headers (Debian/Ubuntu: apt-get install build-essential python3; macOS: xcode-select --install), then install resilient again with install scripts allowed, so npm builds node-pty.',
    }],
  }
}
