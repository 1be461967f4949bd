import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { diagnose, guessTool } from '../../../src/diagnose/index.js'
import { MAX_INPUT_CHARS } from '../../../src/diagnose/normalize.js'
import { expectLinearTime } from '../../helpers/linear-time.js'

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
function adversarialInputs(): [string, (size: number) => string][] {
  const words = wordsOfPatterns()
  return [
    ['one 10 MB line of every pattern word', size => repeatTo(size, words.join(' '))],
    ['10 MB of pattern words, one per line', size => repeatTo(size, words.join('\n'))],
    ['10 MB of pattern words without separators', size => repeatTo(size, words.join(''))],
    // Lines just under the per-line cut (4096 characters) are where a quadratic pattern would cost the most.
    ['10 MB of 4000-character lines of pattern words', size => repeatTo(size, `${repeatTo(4000, words.join(' '))}\n`)],
    ['10 MB of 4000-character lines of pattern words without separators', size => repeatTo(size, `${repeatTo(4000, words.join(''))}\n`)],
    ['one 10 MB line of a single letter', size => 'a'.repeat(size)],
    ['10 MB of spaces then a word', size => `${' '.repeat(size)}x`],
    ['a 10 MB Caused-by chain', size => repeatTo(size, '  Caused by: error sending request for url (https://x.test/a)\n')],
    ['10 MB of nested miette links', size => repeatTo(size, '  ├─▶ │ ╰─▶ ')],
    ['10 MB of dotted host names', size => repeatTo(size, 'getaddrinfo ENOTFOUND a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a')],
    ['10 MB of urllib3 retry lines', size => repeatTo(size, "Retrying (Retry(total=4, connect=None)) after connection broken by 'ProxyError('Cannot connect to proxy.', NewConnectionError(\n")],
    ['10 MB of status-like numbers', size => repeatTo(size, 'HTTP error 403 E404 (503 Service status code 4')],
    ['10 MB of tracebacks', size => repeatTo(size, '  File "x.py", line 1, in f\n    code\nDuring handling of the above exception, another exception occurred:\n')],
    ['10 MB of escaped newlines', size => repeatTo(size, 'Caused by: dns error\\n')],
    ['10 MB of carriage returns', size => repeatTo(size, 'progress 50%\r')],
    ['10 MB of newlines', size => '\n'.repeat(size)],
    ['10 MB of blank lines of spaces and tabs', size => repeatTo(size, ' \t  \r\n')],
    ['10 MB of unclosed version lists', size => repeatTo(size, '(from versions: 1.0, ')],
    ['10 MB of unclosed ANSI escapes', size => repeatTo(size, '\x1b[0;1;2;3;4;5;6;7;8;9;0;1;2;3;4;5;6')],
    ['10 MB of errno markers', size => repeatTo(size, '[Errno 1[WinError (os error error(1, errno -')],
  ]
}

function classify(output: string): void {
  expect(diagnose({ tool: null, output }).category).toBeTypeOf('string')
  guessTool(output)
}

/**
 * Linear up to MAX_INPUT_CHARS (8 times the input, at most 24 times the time), and no dearer beyond it: diagnosis
 * reads only the last MAX_INPUT_CHARS of an output, so 10 MB must cost what 256 kB costs.
 */
const classifiesInLinearTime = (build: (size: number) => string) => () => {
  expectLinearTime(classify, { small: build(MAX_INPUT_CHARS / 8), big: build(MAX_INPUT_CHARS), factor: 8 })
  // Were the input not cut, 10 MB would be 40 times the work of 256 kB.
  expectLinearTime(classify, { small: build(MAX_INPUT_CHARS), big: build(TEN_MB), factor: 1, limit: 8 })
}

describe('robustness: linear-time matching on hostile input', () => {
  it('takes its adversarial words from the patterns themselves', () => expect(wordsOfPatterns().length).toBeGreaterThan(300))
  for (const [name, build] of adversarialInputs()) it(`classifies ${name} in linear time`, classifiesInLinearTime(build))
  it('classifies 10 MB of random bytes in linear time', classifiesInLinearTime(size => randomBytes(size).toString('latin1')))
  it('classifies 10 MB of random bytes read as UTF-8 in linear time', classifiesInLinearTime(size => randomBytes(size).toString('utf8')))
})
