import type { Diagnosis } from '../diagnose/types.js'
import { redact } from '../redact.js'
import type { Reporter, RunResult, Source } from '../run/reporter.js'
import { attemptTitle } from './reporter.js'
import type { RunReporter } from '../run/reporter.js'

export type { RunReporter } from '../run/reporter.js'

type Started = Parameters<Reporter['attemptStarted']>[0]
type Failed = Parameters<Reporter['attemptFailed']>[0]

function describe(diagnosis: Diagnosis): string {
  return `${diagnosis.category.replace(/_/g, ' ')} — ${diagnosis.summary}`
}

/** A reporter that passes everything to the terminal reporter and adds the CI's own markers around it. */
abstract class CiReporter implements RunReporter {
  protected lastFailure: Failed | undefined

  constructor(protected readonly base: RunReporter, protected readonly stream: NodeJS.WritableStream) {}

  protected write(line: string): void {
    this.stream.write(`${line}\n`)
  }

  attemptStarted(event: Started): void {
    this.base.attemptStarted(event)
  }

  attemptFailed(event: Failed): void {
    this.lastFailure = event
    this.base.attemptFailed(event)
  }

  waiting(event: Parameters<Reporter['waiting']>[0]): Promise<void> | void {
    return this.base.waiting(event)
  }

  note(message: string, options?: { overToolLine?: boolean }): void {
    this.base.note(message, options)
  }

  warn(message: string): void {
    this.base.warn(message)
  }

  verbose(message: string): void {
    this.base.verbose(message)
  }

  finished(result: RunResult, event: { switchedTo?: Source }): void {
    this.base.finished(result, event)
  }
}

// https://docs.github.com/actions/reference/workflow-commands-for-github-actions: data and property escapes.
const escapeData = (text: string) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
const escapeProperty = (text: string) => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C')

/**
 * GitHub Actions: each retry's output in a collapsible `::group::` (the first attempt's stays as the plain tool's: a
 * healthy run adds nothing), a `::warning::` for each retry naming the diagnosis, an `::error::` when resilient gives
 * up, `::add-mask::` for every secret it knows. Written to stderr: the runner reads workflow commands from both
 * streams (actions/runner ScriptHandler.cs), and stdout is the tool's.
 */
export class GitHubActionsReporter extends CiReporter {
  private groupOpen = false
  private readonly masked = new Set<string>()

  private command(name: string, message: string, properties: Record<string, string> = {}): void {
    const props = Object.entries(properties).map(([key, value]) => `${key}=${escapeProperty(redact(value))}`).join(',')
    this.write(`::${name}${props ? ` ${props}` : ''}::${escapeData(redact(message))}`)
  }

  mask(secrets: readonly string[]): void {
    for (const secret of secrets) {
      if (this.masked.has(secret)) continue
      this.masked.add(secret)
      // The one line that must carry the value itself: the runner removes it from the log.
      this.write(`::add-mask::${escapeData(secret)}`)
    }
  }

  private endGroup(): void {
    if (this.groupOpen) this.write('::endgroup::')
    this.groupOpen = false
  }

  override attemptStarted(event: Started): void {
    this.endGroup()
    const failure = this.lastFailure
    if (event.retry && failure) {
      this.command('warning', `attempt ${failure.number} failed: ${describe(failure.diagnosis)}; retrying on ${event.source.label}`, { title: 'resilient retry' })
    }
    if (event.retry) {
      this.command('group', `resilient: ${attemptTitle(event)}`)
      this.groupOpen = true
    }
    super.attemptStarted(event)
  }

  override finished(result: RunResult, event: { switchedTo?: Source }): void {
    this.endGroup()
    super.finished(result, event)
    if (result.outcome === 'gave-up' || result.outcome === 'failed') {
      const diagnosis = result.finalDiagnosis
      const what = diagnosis ? describe(diagnosis) : result.stopReason ?? 'failed'
      const attempts = result.attempts.length
      this.command('error', `${attempts === 1 ? 'failed, not retried' : `gave up after ${attempts} attempts`}: ${what}${result.hint ? `. What to do: ${result.hint}` : ''}`, { title: 'resilient gave up' })
    } else if (result.outcome === 'succeeded' && event.switchedTo) {
      this.command('notice', `recovered after ${result.attempts.length} attempts on ${event.switchedTo.label}`, { title: 'resilient' })
    }
  }
}

/**
 * GitLab CI: each retry in a collapsible section (https://docs.gitlab.com/ci/jobs/job_logs/#custom-collapsible-sections);
 * the first attempt's output stays as the plain tool's.
 */
export class GitLabReporter extends CiReporter {
  private openSection: string | undefined

  private endSection(): void {
    if (this.openSection) this.write(`\x1b[0Ksection_end:${Math.floor(Date.now() / 1000)}:${this.openSection}\r\x1b[0K`)
    this.openSection = undefined
  }

  override attemptStarted(event: Started): void {
    this.endSection()
    if (event.retry) {
      this.openSection = `resilient_${process.pid}_attempt_${event.number}`
      const header = redact(`resilient: ${attemptTitle(event)}`)
      this.write(`\x1b[0Ksection_start:${Math.floor(Date.now() / 1000)}:${this.openSection}\r\x1b[0K${header}`)
    }
    super.attemptStarted(event)
  }

  override finished(result: RunResult, event: { switchedTo?: Source }): void {
    this.endSection()
    super.finished(result, event)
  }
}

/** GitHub Actions and GitLab CI get their markers; anywhere else (other CIs included) plain lines. */
export function chooseReporter(env: NodeJS.ProcessEnv, base: RunReporter, stream: NodeJS.WritableStream): RunReporter {
  if (env.GITHUB_ACTIONS === 'true') return new GitHubActionsReporter(base, stream)
  if (env.GITLAB_CI === 'true') return new GitLabReporter(base, stream)
  return base
}
