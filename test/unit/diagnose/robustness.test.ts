import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { diagnose, guessTool } from '../../../src/diagnose/index.js'

const TEN_MB = 10 * 1024 * 1024

const SOURCES = [new URL('../../../src/diagnose/rules/', import.meta.url), new URL('../../../src/diagnose/', import.meta.url)]

/** The literal words of every pattern in the engine: what an adversary would repeat to make a regex backtrack. */
function wordsOfPatterns(): string[] {
  const words = new Set<string>()
  for (const directory of SOURCES) {
    for (const file of readdirSync(directory).filter(name => name.endsWith('.ts'))) {
      const source = readFileSync(fileURLToPath(new URL(file, directory)), 'utf8')
      for (const pattern of source.match(/\/(?:[^/\\\n]|\\.){8,}\/[gimsuy]*/g) ?? []) {
        for (const word of pattern.split(/[|()?:*+[\]{}^$\\]+/)) if (word.length >= 3) words.add(word)
      }
    }
  }
  return [...words]
}

function repeatTo(size: number, unit: string): string {
  return unit.repeat(Math.ceil(size / unit.length)).slice(0, size)
}

/** Inputs built to make backtracking regexes explode: long runs of what the patterns repeat, with and without newlines. */
function adversarialInputs(): [string, () => string][] {
  const words = wordsOfPatterns()
  return [
    ['one 10 MB line of every pattern word', () => repeatTo(TEN_MB, words.join(' '))],
    ['10 MB of pattern words, one per line', () => repeatTo(TEN_MB, words.join('\n'))],
    ['10 MB of pattern words without separators', () => repeatTo(TEN_MB, words.join(''))],
    // Lines just under the per-line cut (4096 characters) are where a quadratic pattern would cost the most.
    ['10 MB of 4000-character lines of pattern words', () => repeatTo(TEN_MB, `${repeatTo(4000, words.join(' '))}\n`)],
    ['10 MB of 4000-character lines of pattern words without separators', () => repeatTo(TEN_MB, `${repeatTo(4000, words.join(''))}\n`)],
    ['one 10 MB line of a single letter', () => 'a'.repeat(TEN_MB)],
    ['10 MB of spaces then a word', () => `${' '.repeat(TEN_MB)}x`],
    ['a 10 MB Caused-by chain', () => repeatTo(TEN_MB, '  Caused by: error sending request for url (https://x.test/a)\n')],
    ['10 MB of nested miette links', () => repeatTo(TEN_MB, '  ├─▶ │ ╰─▶ ')],
    ['10 MB of dotted host names', () => repeatTo(TEN_MB, 'getaddrinfo ENOTFOUND a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a')],
    ['10 MB of urllib3 retry lines', () => repeatTo(TEN_MB, "Retrying (Retry(total=4, connect=None)) after connection broken by 'ProxyError('Cannot connect to proxy.', NewConnectionError(\n")],
    ['10 MB of status-like numbers', () => repeatTo(TEN_MB, 'HTTP error 403 E404 (503 Service status code 4')],
    ['10 MB of tracebacks', () => repeatTo(TEN_MB, '  File "x.py", line 1, in f\n    code\nDuring handling of the above exception, another exception occurred:\n')],
    ['10 MB of escaped newlines', () => repeatTo(TEN_MB, 'Caused by: dns error\\n')],
    ['10 MB of carriage returns', () => repeatTo(TEN_MB, 'progress 50%\r')],
    ['10 MB of newlines', () => '\n'.repeat(TEN_MB)],
    ['10 MB of blank lines of spaces and tabs', () => repeatTo(TEN_MB, ' \t  \r\n')],
    ['10 MB of unclosed version lists', () => repeatTo(TEN_MB, '(from versions: 1.0, ')],
    ['10 MB of unclosed ANSI escapes', () => repeatTo(TEN_MB, '\x1b[0;1;2;3;4;5;6;7;8;9;0;1;2;3;4;5;6')],
    ['10 MB of errno markers', () => repeatTo(TEN_MB, '[Errno 1[WinError (os error error(1, errno -')],
  ]
}

function classifiesQuickly(output: string): void {
  const started = performance.now()
  const diagnosis = diagnose({ tool: null, output })
  guessTool(output)
  const elapsed = performance.now() - started
  expect(diagnosis.category).toBeTypeOf('string')
  expect(elapsed, `took ${elapsed.toFixed(0)} ms`).toBeLessThan(1000)
}

describe('robustness: linear-time matching on hostile input', () => {
  it('takes its adversarial words from the patterns themselves', () => expect(wordsOfPatterns().length).toBeGreaterThan(300))
  for (const [name, build] of adversarialInputs()) it(`classifies ${name} within a second`, () => classifiesQuickly(build()))
  it('classifies 10 MB of random bytes within a second', () => classifiesQuickly(randomBytes(TEN_MB).toString('latin1')))
  it('classifies 10 MB of random bytes read as UTF-8 within a second', () => classifiesQuickly(randomBytes(TEN_MB).toString('utf8')))
})
