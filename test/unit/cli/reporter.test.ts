import { describe, expect, it } from 'vitest'
import { TerminalReporter } from '../../../src/cli/reporter.js'
import type { AttemptRecord, RunResult, Source } from '../../../src/plan/types.js'
import { diagnosisOf } from '../retry/harness.js'

const index: Source = { id: 'upstream', url: undefined, kind: 'upstream', label: 'pypi.org' }
const mirror: Source = { id: 'tuna', url: 'https://mirror.test/simple', kind: 'mirror', label: 'mirror tuna' }

function terminal({ verbose = false, tty = false } = {}) {
  const lines: string[] = []
  const stream = { isTTY: tty, write: (text: string) => lines.push(text.replace(/\n$/, '')) } as unknown as NodeJS.WriteStream
  return { lines, reporter: new TerminalReporter({ stream, quiet: false, verbose, interactive: tty }) }
}
const attempt = (number: number, source: Source): AttemptRecord => ({ number, source, command: { argv: [], env: {} }, hosts: [], exitCode: 1, durationMs: 1500, diagnosis: diagnosisOf('ssl') })

describe('TerminalReporter', () => {
  const first = { number: 1, total: 2, source: index, hosts: [], command: 'pip install torch', retry: false }
  const onMirror = { number: 1, total: 3, source: mirror, hosts: [], command: 'pip install torch -i m', retry: false, reason: 'tuna fixed this last time' }

  it('says "attempt N of M" and the command on retries; the first attempt is silent outside a terminal', () => {
    const { lines, reporter } = terminal()
    reporter.attemptStarted(first)
    reporter.attemptStarted(onMirror)
    reporter.attemptStarted({ number: 2, total: 2, source: mirror, hosts: [], command: 'pip install torch -i m', retry: true })
    expect(lines).toEqual(['→ attempt 2 of 2 on mirror tuna: pip install torch -i m'])
  })

  it('a note said over the tool\'s progress bar erases that line first in a terminal, and only there', () => {
    const tty = terminal({ tty: true })
    tty.reporter.note('torch.whl: pypi.org broke at 612 MB of 900 MB, resuming from tuna', { overToolLine: true })
    tty.reporter.note('between attempts')
    expect(tty.lines.map(line => line.replace(/\x1b\[3\dm|\x1b\[39m/g, ''))).toEqual(['\r\x1b[2K', '… torch.whl: pypi.org broke at 612 MB of 900 MB, resuming from tuna', '… between attempts'])
    const piped = terminal()
    piped.reporter.note('resuming', { overToolLine: true })
    expect(piped.lines).toEqual(['… resuming'])
  })

  it('in a terminal, one line for a first attempt on a mirror, with why; none for the index as typed', () => {
    const { lines, reporter } = terminal({ tty: true })
    reporter.attemptStarted(first)
    reporter.attemptStarted(onMirror)
    expect(lines.map(line => line.replace(/\x1b\[\d+m/g, ''))).toEqual(['→ attempt 1 of 3 on mirror tuna (tuna fixed this last time)'])
  })

  it('--verbose shows the first attempt\'s command', () => {
    const { lines, reporter } = terminal({ verbose: true })
    reporter.attemptStarted(first)
    expect(lines).toEqual(['→ pip install torch'])
  })

  it('a first attempt that succeeds prints nothing', () => {
    const { lines, reporter } = terminal()
    reporter.attemptStarted(first)
    reporter.finished({ outcome: 'succeeded', exitCode: 0, durationMs: 900, attempts: [{ ...attempt(1, index), exitCode: 0, diagnosis: null }] }, {})
    expect(lines).toEqual([])
  })

  it('gives up in plain English: one attempt is "not retried", several are counted', () => {
    const { lines, reporter } = terminal()
    const gaveUp = (attempts: AttemptRecord[]): RunResult => ({ outcome: 'gave-up', exitCode: 1, durationMs: 1500, attempts, finalDiagnosis: diagnosisOf('ssl') })
    reporter.finished(gaveUp([attempt(1, index)]), {})
    reporter.finished(gaveUp([attempt(1, index), attempt(2, mirror)]), {})
    expect(lines).toEqual(['✖ failed after 1.5 s, not retried: ssl — ssl', '✖ gave up after 2 attempts, 1.5 s: ssl — ssl'])
  })
})
