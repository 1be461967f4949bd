import { describe, expect, it } from 'vitest'
import { TerminalReporter } from '../../../src/cli/reporter.js'
import type { AttemptRecord, RunResult, Source } from '../../../src/plan/types.js'
import { diagnosisOf } from '../retry/harness.js'

const index: Source = { id: 'upstream', url: undefined, kind: 'upstream', label: 'pypi.org' }
const mirror: Source = { id: 'tuna', url: 'https://mirror.test/simple', kind: 'mirror', label: 'mirror tuna' }

function terminal() {
  const lines: string[] = []
  const stream = { isTTY: false, write: (text: string) => lines.push(text.replace(/\n$/, '')) } as unknown as NodeJS.WriteStream
  return { lines, reporter: new TerminalReporter({ stream, quiet: false, verbose: false, interactive: false }) }
}
const attempt = (number: number, source: Source): AttemptRecord => ({ number, source, command: { argv: [], env: {} }, hosts: [], exitCode: 1, durationMs: 1500, diagnosis: diagnosisOf('ssl') })

describe('TerminalReporter', () => {
  it('says "attempt N of M" on retries, and names a mirror used first', () => {
    const { lines, reporter } = terminal()
    reporter.attemptStarted({ number: 1, total: 2, source: index, hosts: [], command: 'pip install torch', retry: false })
    reporter.attemptStarted({ number: 2, total: 2, source: mirror, hosts: [], command: 'pip install torch -i m', retry: true })
    reporter.attemptStarted({ number: 1, total: 3, source: mirror, hosts: [], command: 'pip install torch -i m', retry: false })
    expect(lines).toEqual(['→ pip install torch', '→ attempt 2 of 2 on mirror tuna: pip install torch -i m', '→ attempt 1 of 3 on mirror tuna: pip install torch -i m'])
  })

  it('gives up in plain English: one attempt is "not retried", several are counted', () => {
    const { lines, reporter } = terminal()
    const gaveUp = (attempts: AttemptRecord[]): RunResult => ({ outcome: 'gave-up', exitCode: 1, durationMs: 1500, attempts, finalDiagnosis: diagnosisOf('ssl') })
    reporter.finished(gaveUp([attempt(1, index)]), {})
    reporter.finished(gaveUp([attempt(1, index), attempt(2, mirror)]), {})
    expect(lines).toEqual(['✖ failed after 1.5 s, not retried: ssl — ssl', '✖ gave up after 2 attempts, 1.5 s: ssl — ssl'])
  })
})
