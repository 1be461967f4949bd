import { probeRequest } from '../mirrors/probe-targets.js'
import type { RunPlan } from '../plan/types.js'
import type { ExecuteDeps } from './execute.js'
import { HEDGE_DEFAULTS, mayHedge, watchHedge, type ChildActivity, type HedgeSettings } from './hedge.js'
import { usesProxy } from './probe.js'
import { indexUrlOf } from '../url.js'
import { takeBasicAuth } from '../secrets/url.js'

export interface HedgeWatchOptions {
  env: NodeJS.ProcessEnv
  /** What the running attempt's tree has done on the network (its progress watch). */
  activity: () => ChildActivity
  fetch?: typeof globalThis.fetch
  settings?: HedgeSettings
}

/**
 * executeRun's `watch`: for each attempt that may be hedged, one small GET of the index (the same request as
 * `resilient mirrors test`: a project page, never an install) in parallel with the tool. Skipped behind a proxy:
 * Node's fetch would go direct and answer another question than the tool's.
 */
export function createHedgeWatch(plan: RunPlan, { env, activity, fetch = globalThis.fetch, settings = HEDGE_DEFAULTS }: HedgeWatchOptions): ExecuteDeps['watch'] {
  return (attempt, number) => {
    const index = indexUrlOf(attempt.source)
    const hasNextSource = number < plan.limits.maxAttempts && plan.attempts.some(other => other.source.id !== attempt.source.id)
    if (!index || !mayHedge({ source: attempt.source, hasNextSource, networked: plan.networked }) || usesProxy(index, env)) return undefined
    const request = probeRequest(plan.invocation.adapter.ecosystem, index)
    const target = new URL(request.url)
    const headers: Record<string, string> = { ...request.headers }
    const authorization = takeBasicAuth(target)
    if (authorization) headers.authorization = authorization
    return watchHedge(target.host, {
      // Any HTTP answer, whatever its status, shows the index is alive: the tool's own output says the rest.
      probe: signal => fetch(target, { headers, signal, redirect: 'manual' }).then(async response => {
        await response.body?.cancel().catch(() => {})
        return true
      }, () => false),
      activity,
      now: Date.now,
      setTimer: (fn, ms) => {
        const timer = setTimeout(fn, ms)
        timer.unref()
        return { cancel: () => clearTimeout(timer) }
      },
    }, settings)
  }
}
