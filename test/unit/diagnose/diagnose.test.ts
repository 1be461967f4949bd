import { describe, expect, it } from 'vitest'
import { diagnose } from '../../../src/diagnose/index.js'
import type { Rule } from '../../../src/diagnose/types.js'
import { fixture } from './rule-cases.js'

const wordRule = (id: string, word: string, tools: Rule['tools'] = 'any'): Rule => ({
  id, category: 'other', tools, summary: id,
  match: failure => (failure.lines.some(line => line.includes(word)) ? { evidence: [word] } : null),
})

describe('diagnose', () => {
  it('takes the first matching rule in priority order', () => {
    const rules = [wordRule('first', 'boom'), wordRule('second', 'boom')]
    expect(diagnose({ tool: null, output: 'boom' }, rules).ruleId).toBe('first')
  })

  it('reads the innermost cause before the wrapper, whatever the rule order', () => {
    const rules = [wordRule('wrapper', 'Failed to build'), wordRule('cause', 'dns error')]
    const output = 'error: Failed to build `x`\n  Caused by: error sending request\n  Caused by: dns error: failed to lookup'
    expect(diagnose({ tool: null, output }, rules).ruleId).toBe('cause')
  })

  it('falls back to the whole output when no rule explains the innermost cause', () => {
    const rules = [wordRule('wrapper', 'Failed to build')]
    expect(diagnose({ tool: null, output: 'Failed to build `x`\n  Caused by: something new' }, rules).ruleId).toBe('wrapper')
  })

  it("skips rules written for another tool's wording", () => {
    const rules = [wordRule('conda-only', 'boom', ['conda']), wordRule('any', 'boom')]
    expect(diagnose({ tool: 'pip', output: 'boom' }, rules).ruleId).toBe('any')
    expect(diagnose({ tool: 'conda', output: 'boom' }, rules).ruleId).toBe('conda-only')
  })

  it('skips a rule that throws and reports it', () => {
    const broken: Rule = { ...wordRule('broken', 'x'), match: () => { throw new Error('bug') } }
    const errors: string[] = []
    const diagnosis = diagnose({ tool: null, output: 'boom' }, [broken, wordRule('next', 'boom')], rule => errors.push(rule.id))
    expect(diagnosis.ruleId).toBe('next')
    expect(errors).toEqual(['broken'])
  })

  it('says so, with the last lines as evidence, when nothing matches', () => {
    const diagnosis = diagnose({ tool: 'pip', output: 'one\ntwo\nthree\nfour\n' })
    expect(diagnosis).toMatchObject({ category: 'other', ruleId: 'unclassified', evidence: ['two', 'three', 'four'], retryable: false })
  })

  it('always gives a next step', () => {
    for (const name of ['pip/py-004-timeout', 'npm/cj-146-resolution-conflict', 'conda/cj-030-package-not-found']) {
      expect(diagnose(fixture(name)).nextStep?.length).toBeGreaterThan(40)
    }
  })
})

describe('facts and what they change', () => {
  it('knows a public mirror', () => expect(diagnose(fixture('pip/py-034-http-auth')).facts).toMatchObject({ host: 'pypi.tuna.tsinghua.edu.cn', hostRole: 'mirror', status: 403 }))
  it('knows the upstream index', () => expect(diagnose(fixture('npm/cj-129-rate-limited')).facts).toMatchObject({ host: 'registry.npmjs.org', hostRole: 'upstream' }))
  it('knows a file host', () => expect(diagnose(fixture('pip/py-108-hash-mismatch')).facts.hostRole).toBe('file-host'))
  it('knows the index the output names', () => expect(diagnose(fixture('pip/py-041-server-error')).facts).toMatchObject({ host: 'pypi.example.com', hostRole: 'index' }))
  it('knows the proxy', () => expect(diagnose(fixture('npm/cj-107-proxy')).facts).toMatchObject({ host: 'server', hostRole: 'proxy', viaProxy: true }))
  it('reads the errno', () => expect(diagnose(fixture('npm/cj-159-permission')).facts.errno).toBe('EACCES'))
  it('reads Retry-After', () => expect(diagnose({ tool: 'pip', output: 'HTTP error 429 while getting https://pypi.org/simple/x/\nRetry-After: 120' }).facts.retryAfterSeconds).toBe(120))
  it('calls a public mirror\'s 403 retryable (another mirror helps)', () => expect(diagnose(fixture('pip/py-036-http-auth')).retryable).toBe(true))
  it('calls a private index\'s 401 not retryable (it wants credentials)', () => expect(diagnose(fixture('pip/py-142-http-auth')).retryable).toBe(false))
  it('calls a package missing on a mirror retryable (upstream may have it)', () => expect(diagnose(fixture('conda/cj-030-package-not-found')).retryable).toBe(true))
  it('calls a package missing upstream not retryable', () => expect(diagnose(fixture('pip/py-052-package-not-found')).retryable).toBe(false))
  it('calls a timeout retryable and a TLS failure not', () => {
    expect(diagnose(fixture('pip/py-004-timeout')).retryable).toBe(true)
    expect(diagnose(fixture('pip/py-025-ssl')).retryable).toBe(false)
  })
})
