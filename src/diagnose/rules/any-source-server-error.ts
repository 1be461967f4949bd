import type { Rule, SourceAnswers } from '../types.js'

// A source behind resilient's relay whose every answer during the attempt was a server error (5xx) failed, whatever
// the tool concluded from the pages it did not get: pip says only "(from versions: none)" after its own retries of a
// 503 (captured: pip/captured-other-nothing-listed-503.txt), a solver reports a missing package or a conflict.
// The relay's own count of what each source answered (src/run/relay.ts) is the evidence; the text has none.
function failedOnlyWithServerErrors(answers: SourceAnswers): number {
  const kinds = Object.entries(answers.failures).filter(([, count]) => count)
  const errors = answers.failures['server-error'] ?? 0
  return answers.served === 0 && errors > 0 && kinds.length === 1 ? errors : 0
}

export const anySourceServerError = {
  id: 'any-source-server-error',
  category: 'server_error',
  tools: 'any',
  summary: 'A source behind resilient\'s relay answered every request with a server error (HTTP 5xx)',
  match: failure => {
    const [id, errors] = Object.entries(failure.relayed ?? {}).map(([source, answers]) => [source, failedOnlyWithServerErrors(answers)] as const).find(([, count]) => count > 0) ?? []
    if (!id || !errors) return null
    return { evidence: [`resilient's relay asked ${id}: ${errors} answer(s), every one a server error (HTTP 5xx), none passed on`], facts: { host: id },
      summary: `${id} answered every request with a server error (HTTP 5xx)` }
  },
} satisfies Rule
