import chalk, { Chalk, type ChalkInstance } from 'chalk'
import type { Diagnosis } from '../diagnose/types.js'
import { escapeWorkflowData, printable, redact } from '../redact.js'
import { inForeground } from '../run/signal-router.js'
import { watchQuietTool } from './spinner-surface.js'
import type { QuietToolWatch } from '../run/reporter.js'
import { countdownText, spinnerAllowed, type WaitSurface } from './wait-display.js'
import type { Reporter, RunResult, Source } from '../run/reporter.js'

/** `attempt 2 of 3 on mirror tuna`: said for every retry, and for a first attempt that does not use the index. */
export function attemptTitle({ number, total, source, retry }: Parameters<Reporter['attemptStarted']>[0]): string | undefined {
  if (!retry && !(source.url && source.kind === 'mirror')) return undefined
  return `attempt ${number} of ${total} on ${source.label}`
}

/** `gave up after 3 attempts, 41 s`, or for a single attempt `failed after 1.5 s, not retried`. */
export function givingUp(attempts: number, duration: string): string {
  return attempts === 1 ? `failed after ${duration}, not retried` : `gave up after ${attempts} attempts, ${duration}`
}

export interface ReporterOptions {
  stream: NodeJS.WriteStream
  quiet: boolean
  verbose: boolean
  /** Spinners only in an interactive terminal outside CI. */
  interactive: boolean
  /** GitHub Actions: every line is escaped as workflow-command data, so no value can start a command. */
  githubActions?: boolean
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`
}

function describe(diagnosis: Diagnosis): string {
  return `${diagnosis.category.replace(/_/g, ' ')} — ${diagnosis.summary}`
}

/** The only place that knows about colours and spinners; everything it prints goes to stderr, redacted. */
export class TerminalReporter implements Reporter {
  private readonly color: ChalkInstance

  constructor(private readonly options: ReporterOptions) {
    this.color = options.stream.isTTY ? chalk : new Chalk({ level: 0 })
  }

  private print(line: string, always = false): void {
    if (this.options.quiet && !always) return
    this.quietSpinner?.clear()
    // Whatever came from outside (evidence, file names, mirror names) cannot move the cursor or start a new line.
    const safe = printable(redact(line), { keepColor: true })
    this.options.stream.write(`${this.options.githubActions ? escapeWorkflowData(safe) : safe}\n`)
  }

  /**
   * Every retry says where it goes and what it runs. The first attempt is silent (a healthy run prints nothing of
   * resilient's own: with 2>&1, the bytes of the plain tool): --verbose shows its command, and in a terminal one dim
   * line says so when it does not use the index as typed (a mirror first, and why).
   */
  attemptStarted(event: Parameters<Reporter['attemptStarted']>[0]): void {
    this.clearWait()
    const title = attemptTitle(event)
    if (event.retry || this.options.verbose) return this.print(this.color.cyan(`→ ${title ? `${title}: ` : ''}${event.command}`))
    if (title && this.options.interactive && this.options.stream.isTTY) this.print(this.color.dim(`→ ${title}${event.reason ? ` (${event.reason})` : ''}`))
  }

  attemptFailed({ number, diagnosis, durationMs, exitCode, stopped }: Parameters<Reporter['attemptFailed']>[0]): void {
    this.print(this.color.red(`✖ attempt ${number} failed after ${seconds(durationMs)} (${stopped ? 'stopped by resilient' : `exit ${exitCode}`}): ${describe(diagnosis)}`))
    if (this.options.verbose) {
      for (const line of diagnosis.evidence) this.print(this.color.dim(`    ${line}`))
      this.print(this.color.dim(`    rule ${diagnosis.ruleId}`))
    }
  }

  private canSpin(): boolean {
    return spinnerAllowed({ isTTY: this.options.interactive && this.options.stream.isTTY, columns: this.options.stream.columns, ci: false }) && inForeground()
  }

  /** The spinner of a silent tool, if any: erased before resilient's own lines as before the tool's output. */
  private quietSpinner: WaitSurface | undefined

  /** While the tool has printed nothing for a second: a spinner saying so, erased before its next output. */
  watchQuietTool(tool: string, host?: string): QuietToolWatch | undefined {
    if (this.options.quiet || !this.canSpin()) return undefined
    const watch = watchQuietTool(import('ora').then(module => module.default), this.options.stream, tool, host)
    this.quietSpinner = watch.surface
    return { output: watch.output, stop: () => { watch.stop(); this.quietSpinner = undefined } }
  }

  /** The count-down on screen during a wait, if any: cleared before anything else is printed (clearWait). */
  private countdown: { stop(): void } | undefined

  /**
   * A wait before a retry: in a terminal with a width, a spinner counting down each second (`waiting 4 s before
   * trying mirrors.aliyun.com`), gone by the time the next attempt starts; elsewhere (CI, a pipe) one plain line.
   */
  async waiting({ seconds: wait, reason, next }: Parameters<Reporter['waiting']>[0]): Promise<void> {
    if (this.options.quiet) return
    const tail = (left: number) => (next ? countdownText(left, next) : `waiting ${left.toFixed(1)} s`)
    if (!this.canSpin()) {
      this.print(this.color.yellow(`… ${reason}; ${tail(wait)}`))
      return
    }
    const { default: ora } = await import('ora')
    this.clearWait()
    const endsAt = Date.now() + wait * 1000
    const text = () => printable(redact(`${reason}; ${tail((endsAt - Date.now()) / 1000)}`))
    // discardStdin off: ora would put the terminal in raw mode and swallow keys typed ahead for the shell.
    const spinner = ora({ text: text(), stream: this.options.stream, discardStdin: false }).start()
    const ticker = setInterval(() => (Date.now() >= endsAt ? this.clearWait() : void (spinner.text = text())), 250)
    ticker.unref()
    this.countdown = { stop: () => { clearInterval(ticker); spinner.stop() } }
  }

  /** Erases a count-down still on screen, so the next attempt's own output starts on a clean line. */
  private clearWait(): void {
    this.countdown?.stop()
    this.countdown = undefined
  }

  /**
   * `overToolLine`: said while the tool runs (the relay resuming a file), when the tool may have left its progress
   * bar on the current line; in a terminal that line is erased first (the tool redraws it), so the two do not mix.
   */
  note(message: string, { overToolLine = false }: { overToolLine?: boolean } = {}): void {
    if (overToolLine && !this.options.quiet) this.eraseToolLine()
    this.print(this.color.yellow(`… ${message}`))
  }

  verbose(message: string): void {
    if (this.options.verbose) this.print(this.color.dim(message))
  }

  /** An attempt's live throughput (--verbose). In a terminal it first erases the progress bar the tool may have
   * left on the current line (the tool redraws it), so the two do not mix. */
  throughput(line: string): void {
    if (!this.options.verbose || this.options.quiet) return
    this.eraseToolLine()
    this.print(this.color.dim(line))
  }

  /** In a terminal, erases the line the tool's progress bar is drawn on (the tool redraws it). */
  private eraseToolLine(): void {
    if (this.options.stream.isTTY) this.options.stream.write('\r\x1b[2K')
  }

  warn(message: string): void {
    this.print(this.color.yellow(`! ${message}`), true)
  }

  finished(result: RunResult, { switchedTo }: { switchedTo?: Source }): void {
    this.clearWait()
    const attempts = result.attempts.length
    if (result.outcome === 'ran-once') return
    if (result.outcome === 'succeeded') {
      if (attempts === 1 && !this.options.verbose) return
      const how = switchedTo ? ` (switched to ${switchedTo.label})` : ''
      this.print(this.color.green(`✔ done in ${attempts} attempt${attempts > 1 ? 's' : ''}${how}, ${seconds(result.durationMs)}`))
      return
    }
    if (result.outcome === 'interrupted') {
      this.print(this.color.yellow(`■ interrupted${result.signal ? ` (${result.signal})` : ''}: nothing more will be tried`), true)
      return
    }
    const diagnosis = result.finalDiagnosis
    this.print(this.color.red.bold(`✖ ${givingUp(attempts, seconds(result.durationMs))}: ${diagnosis ? describe(diagnosis) : result.stopReason ?? 'failed'}`), true)
    if (result.stopReason && diagnosis && result.stopReason !== diagnosis.summary) this.print(`  why it stopped: ${result.stopReason}`, true)
    for (const line of diagnosis?.evidence ?? []) this.print(this.color.dim(`  │ ${line}`), true)
    if (result.hint) this.print(this.color.bold(`  → what to do: ${result.hint}`), true)
  }
}
