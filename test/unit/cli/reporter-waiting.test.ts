import { describe, expect, it } from 'vitest'
import { TerminalReporter } from '../../../src/cli/reporter.js'

// A terminal of no width (a 0-column pane) gets a line, not a spinner redrawing in a busy loop.
describe('TerminalReporter.waiting', () => {
  it('prints one line instead of a spinner when the terminal has no width', async () => {
    const written: string[] = []
    const stream = { isTTY: true, columns: 0, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream
    const reporter = new TerminalReporter({ stream, quiet: false, verbose: false, interactive: true })
    await reporter.waiting({ seconds: 2, reason: 'the index asked to wait', endsAt: 2000 })
    expect(written.join('')).toContain('the index asked to wait; waiting 2.0 s')
    expect(written).toHaveLength(1)
  })
})
