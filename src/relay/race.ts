import { failureOf, retryAfterMs, type RelayContext } from './context.js'
import type { IndexFailure } from './page-authority.js'
import { failureAnswer, verdictOf, type Failure, type RaceOutcome, type RaceRequest } from './race-request.js'
import type { FailureKind, RelaySource } from './types.js'
import type { UpstreamResponse } from './upstream.js'

export type { RaceOutcome, RaceRequest } from './race-request.js'

/**
 * One request, raced across the sources: the first is asked; on a failure the next is asked at once, and when the
 * first byte is later than the hedging delay learned for the one being waited on, the next is asked in parallel.
 * The first good answer wins and the others are cancelled. Nothing is given up for being slow while no other
 * source has answered. A 429 keeps its source out until its Retry-After (up to the bound, when it is asked again).
 */
export function race(context: RelayContext, request: RaceRequest): Promise<RaceOutcome> {
  const { ledger, latency } = context
  const { gate, probe } = request
  // The learned first-byte times are for hedging, which pages of a standing index never use: an index slow to build
  // a page (a cache miss) is not thereby slow to serve a file, so its page answers are not learned.
  const learn = (source: RelaySource, ms: number, censored?: boolean) => {
    if (source !== gate?.source && source !== probe?.source) latency.record(source.id, ms, censored)
  }
  return new Promise(resolve => {
    const queue = [...request.candidates]
    const running = new Map<RelaySource, { controller: AbortController; startedAt: number }>()
    const asked: RelaySource[] = []
    const failures: Failure[] = []
    const retriedAfterWait = new Set<RelaySource>()
    let settled = false
    let hedgeTimer: NodeJS.Timeout | undefined
    let waitTimer: NodeJS.Timeout | undefined
    let silenceTimer: NodeJS.Timeout | undefined
    // Closed while only the index may be asked for a page (RaceRequest.gate).
    let gateOpen = !gate
    let gateFailures = 0
    const openGate = (why: IndexFailure) => {
      if (gateOpen) return
      gateOpen = true
      clearTimeout(silenceTimer)
      gate!.opened(why)
    }
    const askable = (source: RelaySource) => gateOpen || source === gate!.source

    /** The index asked as a probe while down is left to tell whether it is back, within its silence bound. */
    const leaveProbe = (run: { controller: AbortController }) => {
      const timer = setTimeout(() => {
        running.delete(probe!.source)
        run.controller.abort()
        probe!.answered(false)
      }, probe!.silentMs)
      timer.unref()
      probeTimer = timer
    }
    let probeTimer: NodeJS.Timeout | undefined

    const settle = (outcome: RaceOutcome) => {
      if (settled) return
      settled = true
      clearTimeout(hedgeTimer)
      clearTimeout(waitTimer)
      clearTimeout(silenceTimer)
      request.signal.removeEventListener('abort', onAbort)
      for (const [source, run] of running) {
        if (outcome.won && source === outcome.source) continue
        if (outcome.won && source === probe?.source) {
          leaveProbe(run)
          continue
        }
        running.delete(source)
        run.controller.abort()
        learn(source, context.now() - run.startedAt, true)
        context.standing.record(source.id, false)
      }
      if (outcome.won) {
        const losers = asked.filter(source => source !== outcome.source)
        for (const source of losers) ledger.failedOver(request.path, source.id, outcome.source.id, failures.find(f => f.source === source)?.kind ?? 'slow')
        if (!request.ahead) ledger.served(outcome.source.id)
      }
      resolve(outcome)
    }
    const onAbort = () => settle({ won: false, status: 499, headers: {}, message: 'the tool closed its request' })
    request.signal.addEventListener('abort', onAbort)

    const armHedge = (source: RelaySource) => {
      clearTimeout(hedgeTimer)
      if (!queue.length) return
      hedgeTimer = setTimeout(() => {
        if (settled || !running.has(source)) return
        ledger.hedged(source.id)
        launchNext()
      }, source === probe?.source ? 0 : latency.delayFor(source.id))
    }

    // The index alone, silent past its bound: it has failed, and the others are asked while it may still answer.
    const armSilence = (source: RelaySource) => {
      clearTimeout(silenceTimer)
      silenceTimer = setTimeout(() => {
        if (settled || !running.has(source)) return
        openGate('timeout')
        launchNext()
      }, gate!.silentMs)
    }

    const launch = (source: RelaySource) => {
      const controller = new AbortController()
      const startedAt = context.now()
      running.set(source, { controller, startedAt })
      if (!asked.includes(source)) asked.push(source)
      ledger.requested(source.id)
      Promise.resolve(request.upstreamOf(source))
        .then(url => context.upstream(url, { method: request.method, headers: request.headers, signal: controller.signal, authorization: source.authorization, body: request.body }))
        .then(response => onResponse(source, response), error => onFailure(source, failureOf(error)))
      if (gateOpen) armHedge(source)
      else armSilence(source)
    }

    /** Starts the first queued source that may be asked now and is not cooling down; false when there is none. */
    const launchNext = (): boolean => {
      const now = context.now()
      const index = queue.findIndex(source => askable(source) && (context.cooling.get(source.id) ?? 0) <= now)
      if (index < 0) return false
      launch(queue.splice(index, 1)[0]!)
      return true
    }

    /** The probe's answer after another source won: only whether the index is back. */
    const onLateAnswer = (source: RelaySource, ok: boolean) => {
      const run = running.get(source)
      if (!settled || source !== probe?.source || !run) return false
      clearTimeout(probeTimer)
      running.delete(source)
      run.controller.abort()
      learn(source, context.now() - run.startedAt)
      probe.answered(ok)
      return true
    }

    const onResponse = (source: RelaySource, response: UpstreamResponse) => {
      const verdict = verdictOf(response.status, request.kind, source === context.index)
      if (onLateAnswer(source, verdict === 'win')) return void response.body.on('error', () => {}).destroy()
      const run = running.get(source)
      if (!run || settled) return void response.body.destroy()
      learn(source, context.now() - run.startedAt)
      context.standing.record(source.id, verdict === 'win')
      if (verdict === 'win') {
        running.delete(source)
        return settle({ won: true, source, response, controller: run.controller })
      }
      response.body.on('error', () => {}).resume()
      const retryAfter = response.headers['retry-after']
      if (verdict === 'rate-limited') {
        const wait = retryAfterMs(retryAfter, context.now()) ?? 1000
        context.cooling.set(source.id, context.now() + wait)
        // Within the bound it is asked again once, after the other sources.
        if (wait <= context.retryAfterBoundMs && !retriedAfterWait.has(source)) {
          retriedAfterWait.add(source)
          queue.push(source)
          context.ledger.waiting(request.path, source.id, wait)
        }
      }
      onFailure(source, verdict, response.status, Array.isArray(retryAfter) ? retryAfter[0] : retryAfter)
    }

    const onFailure = (source: RelaySource, kind: FailureKind, status?: number, retryAfter?: string) => {
      if (onLateAnswer(source, false)) return
      if (settled || !running.delete(source)) return
      if (status === undefined) context.standing.record(source.id, false)
      ledger.failed(source.id, kind)
      failures.push({ source, kind, status, retryAfter })
      if (!gateOpen && source === gate!.source) onIndexFailure(source, kind)
      if (!launchNext() && !running.size) whenNothingRuns()
    }

    // The index failed a page: asked again once at once (a 429 within the bound: after its Retry-After, above); the
    // second failure, or a 429 it will not be asked again after, lets the other sources be asked.
    const onIndexFailure = (source: RelaySource, kind: FailureKind) => {
      gateFailures++
      const waiting = queue.includes(source)
      if (gateFailures === 1 && !waiting && kind !== 'rate-limited') queue.unshift(source)
      else if (gateFailures >= 2 || !waiting) openGate(kind === 'not-found' || kind === 'hash-mismatch' || kind === 'bad-range' ? 'refused' : kind)
    }

    // Nothing runs and every source left is cooling down: wait for the first back, within the bound; else give up.
    const whenNothingRuns = () => {
      const now = context.now()
      const left = queue.filter(askable)
      const back = Math.min(...left.map(s => context.cooling.get(s.id) ?? now))
      if (left.length && back - now <= context.retryAfterBoundMs) {
        // A timer may wake a little before context.now() says the wait is over (timers run on libuv's clock, cached
        // per loop turn; now() is the wall clock): the rest is waited, never taken for a source that is not back.
        waitTimer = setTimeout(() => launchNext() || whenNothingRuns(), Math.max(1, back - now))
        return
      }
      settle(failureAnswer(failures, context.index, request.kind))
    }

    if (!launchNext()) whenNothingRuns()
  })
}
