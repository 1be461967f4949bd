import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { normalizeFailure } from '../../../src/diagnose/normalize.js'
import type { Failure, Rule } from '../../../src/diagnose/types.js'

const FIXTURES = new URL('../../fixtures/output/', import.meta.url)

/**
 * A captured output: `<tool>/<case>` under test/fixtures/output, without its first line (where it came from). A
 * capture made with a proxy says so in that line (`HTTPS_PROXY = http://127.0.0.1:9`): the proxy is the context the
 * tool ran in, given to the diagnosis as the retry loop gives it.
 */
export function fixture(name: string): Failure {
  const text = readFileSync(fileURLToPath(new URL(`${name}.txt`, FIXTURES)), 'utf8')
  const tool = name.split('/')[0]!
  const header = text.slice(0, text.indexOf('\n'))
  const proxy = /proxy[\w ]{0,40} = (\S+?)[),;]?(?:\s|$)/i.exec(header)?.[1]
  return { tool, output: text.slice(text.indexOf('\n') + 1), ...(proxy && { proxies: [proxy] }) }
}

export interface RuleCases {
  /** Fixtures the rule must match; its evidence must be lines of the (normalised) output. */
  matches: string[]
  /** Fixtures the rule must not match: other causes with similar words. */
  ignores: string[]
}

/** One test per fixture: the rule matches what it is for and stays silent on its neighbours. */
export function describeRule(rule: Rule, cases: RuleCases): void {
  describe(rule.id, () => {
    for (const name of cases.matches) {
      it(`matches ${name}`, () => {
        const failure = normalizeFailure(fixture(name))
        const match = rule.match(failure)
        expect(match).not.toBeNull()
        expect(match!.evidence.length).toBeGreaterThan(0)
        for (const line of match!.evidence) expect(failure.text).toContain(line.replace(/…$/, ''))
      })
    }
    for (const name of cases.ignores) it(`ignores ${name}`, () => expect(rule.match(normalizeFailure(fixture(name)))).toBeNull())
  })
}

/** The rule's match on a fixture, for tests of the facts and summary it reads. */
export function matchOf(rule: Rule, name: string) {
  const match = rule.match(normalizeFailure(fixture(name)))
  expect(match).not.toBeNull()
  return match!
}
