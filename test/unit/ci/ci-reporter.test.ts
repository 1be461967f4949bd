import { describe, expect, it } from 'vitest'
import { chooseReporter, GitHubActionsReporter, GitLabReporter, type RunReporter } from '../../../src/cli/ci-reporter.js'
import type { Diagnosis } from '../../../src/diagnose/types.js'
import type { RunResult, Source } from '../../../src/retry/types.js'

const primary: Source = { id: 'primary', url: undefined, kind: 'upstream', label: 'pypi.org' }
const mirror: Source = { id: 'tuna', url: 'https://mirror.test/simple', kind: 'mirror', label: 'mirror tuna' }
const timeout: Diagnosis = { category: 'timeout', ruleId: 'any-timeout', summary: 'pypi.org did not answer, 100% sure', evidence: ['Read timed out.'], facts: {}, remedy: { kind: 'switch-mirror' }, retryable: true, nextStep: 'resilient retries on a mirror.' }

/** The base reporter's calls, and everything written to the CI stream, in one ordered list. */
function harness() {
  const out: string[] = []
  const base: RunReporter = {
    attemptStarted: event => out.push(`base:started ${event.number}`),
    attemptFailed: event => out.push(`base:failed ${event.number}`),
    waiting: () => undefined,
    note: message => out.push(`base:note ${message}`),
    warn: message => out.push(`base:warn ${message}`),
    verbose: () => undefined,
    finished: result => out.push(`base:finished ${result.outcome}`),
  }
  const stream = { write: (text: string) => out.push(text.replace(/\n$/, '')) } as unknown as NodeJS.WritableStream
  return { out, base, stream }
}

function playRecovery(reporter: RunReporter) {
  reporter.attemptStarted({ number: 1, total: 4, source: primary, hosts: [], command: 'pip install torch', retry: false })
  reporter.attemptFailed({ number: 1, source: primary, diagnosis: timeout, durationMs: 6000, exitCode: 1 })
  reporter.attemptStarted({ number: 2, total: 4, source: mirror, hosts: [], command: 'pip install torch --index-url https://mirror.test/simple', retry: true })
  const result: RunResult = { outcome: 'succeeded', exitCode: 0, durationMs: 9000, attempts: [] }
  reporter.finished(result, { switchedTo: mirror })
}

describe('chooseReporter', () => {
  it('uses GitHub annotations only when GITHUB_ACTIONS=true', () => {
    const { base, stream } = harness()
    expect(chooseReporter({ GITHUB_ACTIONS: 'true' }, base, stream)).toBeInstanceOf(GitHubActionsReporter)
    expect(chooseReporter({ GITLAB_CI: 'true' }, base, stream)).toBeInstanceOf(GitLabReporter)
    expect(chooseReporter({ CI: 'true' }, base, stream)).toBe(base)
    expect(chooseReporter({ GITHUB_ACTIONS: 'false' }, base, stream)).toBe(base)
  })
})

describe('GitHub Actions', () => {
  it('groups each retry (never the first attempt), warns on the retry with the diagnosis, and closes the last group', () => {
    const { out, base, stream } = harness()
    playRecovery(new GitHubActionsReporter(base, stream))
    expect(out).toEqual([
      'base:started 1',
      'base:failed 1',
      '::warning title=resilient retry::attempt 1 failed: timeout — pypi.org did not answer, 100%25 sure; retrying on mirror tuna',
      '::group::resilient: attempt 2 of 4 on mirror tuna',
      'base:started 2',
      '::endgroup::',
      'base:finished succeeded',
      '::notice title=resilient::recovered after 0 attempts on mirror tuna',
    ])
  })

  it('says ::error:: with the diagnosis and what to do when it gives up', () => {
    const { out, base, stream } = harness()
    const reporter = new GitHubActionsReporter(base, stream)
    reporter.attemptStarted({ number: 1, total: 1, source: primary, hosts: [], command: 'pip install x', retry: false })
    reporter.attemptFailed({ number: 1, source: primary, diagnosis: timeout, durationMs: 1, exitCode: 1 })
    const attempts = [{ number: 1, source: primary, command: { argv: [], env: {} }, hosts: [], exitCode: 1, durationMs: 1, diagnosis: timeout }]
    reporter.finished({ outcome: 'gave-up', exitCode: 1, durationMs: 1, attempts, finalDiagnosis: timeout, hint: 'Check the network:\nthen retry' }, {})
    expect(out.at(-1)).toBe('::error title=resilient gave up::failed, not retried: timeout — pypi.org did not answer, 100%25 sure. What to do: Check the network:%0Athen retry')
    reporter.finished({ outcome: 'gave-up', exitCode: 1, durationMs: 1, attempts: [...attempts, { ...attempts[0]!, number: 2 }], finalDiagnosis: timeout }, {})
    expect(out.at(-1)).toBe('::error title=resilient gave up::gave up after 2 attempts: timeout — pypi.org did not answer, 100%25 sure')
  })

  it('masks each secret once, before anything else mentions it', () => {
    const { out, base, stream } = harness()
    const reporter = new GitHubActionsReporter(base, stream)
    reporter.mask(['s3cret-value', 'other%secret'])
    reporter.mask(['s3cret-value'])
    expect(out).toEqual(['::add-mask::s3cret-value', '::add-mask::other%25secret'])
  })

  it('never prints a secret in an annotation', () => {
    const { out, base, stream } = harness()
    const reporter = new GitHubActionsReporter(base, stream)
    const leaky: Source = { ...mirror, label: 'https://bob:hunter22@corp.test/simple' }
    reporter.attemptStarted({ number: 1, total: 2, source: primary, hosts: [], command: 'pip', retry: false })
    reporter.attemptFailed({ number: 1, source: primary, diagnosis: { ...timeout, summary: 'token ghp_0123456789abcdefghijABCDEFGHIJ012345 rejected' }, durationMs: 1, exitCode: 1 })
    reporter.attemptStarted({ number: 2, total: 2, source: leaky, hosts: [], command: 'pip', retry: true })
    expect(out.join('\n')).not.toMatch(/hunter22|ghp_0123/)
  })

  it('a healthy run adds no group and no annotation', () => {
    const { out, base, stream } = harness()
    const reporter = new GitHubActionsReporter(base, stream)
    reporter.attemptStarted({ number: 1, total: 4, source: primary, hosts: [], command: 'pip install torch', retry: false })
    reporter.finished({ outcome: 'succeeded', exitCode: 0, durationMs: 1, attempts: [] }, {})
    expect(out).toEqual(['base:started 1', 'base:finished succeeded'])
  })

  it('plain runs that never retry get no annotations', () => {
    const { out, base, stream } = harness()
    new GitHubActionsReporter(base, stream).finished({ outcome: 'ran-once', exitCode: 0, durationMs: 1, attempts: [] }, {})
    expect(out).toEqual(['base:finished ran-once'])
  })
})

describe('GitLab CI', () => {
  it('wraps each retry in a collapsible section, never the first attempt', () => {
    const { out, base, stream } = harness()
    playRecovery(new GitLabReporter(base, stream))
    const sections = out.filter(line => line.includes('section_'))
    expect(sections).toHaveLength(2)
    expect(sections[0]).toMatch(/^\x1b\[0Ksection_start:\d+:resilient_\d+_attempt_2\r\x1b\[0Kresilient: attempt 2 of 4 on mirror tuna$/)
    expect(sections[1]).toMatch(/^\x1b\[0Ksection_end:\d+:resilient_\d+_attempt_2\r\x1b\[0K$/)
    expect(out.indexOf(sections[1]!)).toBeLessThan(out.indexOf('base:finished succeeded'))
  })
})
