import { createRequire } from 'node:module'
import type { PtyModule } from '../../src/exec/output/pty-module.js'

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

