import { probeRequest } from '../mirrors/probe-targets.js'
import type { PlannedAttempt, RunPlan } from '../plan/types.js'
import type { AttemptsDeps } from './attempts-loop.js'
import { HEDGE_DEFAULTS, mayHedge, watchHedge, type ChildActivity, type HedgeProbe, type HedgeSettings } from './hedge.js'
import { usesProxy } from '../proxies.js'
import { indexUrlOf } from '../url.js'
import { takeBasicAuth } from '../secrets/url.js'
import type { IndexAnswers } from './index-answers.js'
import { askIndex, type Answer, type AskIndex } from './ask-index.js'

export interface HedgeWatchOptions {
  env: NodeJS.ProcessEnv
  /** What the running attempt's tree has done on the network (its progress watch). */
  activity: () => ChildActivity
  /** How resilient's own request is sent (askIndex; a test's stand-in). */
  ask?: AskIndex
  settings?: HedgeSettings
}

/**
 * The request of `resilient mirrors test` to one index (a project page, never an install), and its host. Any HTTP
 * answer, whatever its status, shows the index is alive: the tool's own output says the rest. A name that does not
 * resolve, or a certificate Node distrusts (the tool may trust it), tells nothing: `unknown`.
 */
function probeOf(plan: RunPlan, index: string, askOnce: AskIndex): { host: string; ask(signal: AbortSignal): Promise<Answer> } {
  const request = probeRequest(plan.invocation.adapter.ecosystem, index)
  const target = new URL(request.url)
  const headers: Record<string, string> = { ...request.headers }
  const authorization = takeBasicAuth(target)
  if (authorization) headers.authorization = authorization
  const ask = (signal: AbortSignal): Promise<Answer> => askOnce(target, headers, signal).catch(() => 'unknown' as const)
  return { host: target.host, ask }
}

/**
 * Whether the tool reaches `index` through a proxy: the environment's (HTTPS_PROXY and friends, NO_PROXY honoured), one
 * the tool reads from its own variables (plan.proxies: PIP_PROXY, npm_config_proxy...) or one on its command line
 * (`--proxy`, `--https-proxy`). resilient's own request would go direct and answer another question than the tool's.
 */
function throughProxy(plan: RunPlan, index: string, env: NodeJS.ProcessEnv): boolean {
  const own = (plan.proxies ?? []).filter(proxy => ![env.HTTPS_PROXY, env.https_proxy, env.HTTP_PROXY, env.http_proxy, env.ALL_PROXY, env.all_proxy].includes(proxy))
  return usesProxy(index, env) || own.length > 0 || plan.invocation.args.some(arg => /^--(https-)?proxy(=|$)/.test(arg))
}

const asProbe = (ask: (signal: AbortSignal) => Promise<Answer>): HedgeProbe => signal => ask(signal).then(answer => answer === 'answered')

/** The source tried after `attempt` in the plan's order (or before it, when it is last), if another may be asked. */
function otherSource(plan: RunPlan, attempt: PlannedAttempt, env: NodeJS.ProcessEnv): string | undefined {
  const at = plan.attempts.indexOf(attempt)
  const others = [...plan.attempts.slice(at + 1), ...plan.attempts.slice(0, Math.max(at, 0))].filter(other => other.source.id !== attempt.source.id)
  const index = others.map(other => indexUrlOf(other.source)).find(url => url && /^https?:/i.test(url))
  return index && !throughProxy(plan, index, env) ? index : undefined
}

/**
 * runAttempts's `alive`: whether a source answers the same small request now (any HTTP status) within `timeoutMs`;
 * false when it stays silent or refuses the connection; undefined when resilient cannot tell (behind a proxy, an
 * index that is not http(s), a name that does not resolve here, a certificate Node distrusts).
 */
export function createAliveCheck(plan: RunPlan, env: NodeJS.ProcessEnv, ask = askIndex, timeoutMs = 5000, answers?: IndexAnswers): AttemptsDeps['alive'] {
  return async source => {
    const index = indexUrlOf(source)
    if (!index || !/^https?:/i.test(index) || throughProxy(plan, index, env)) return undefined
    // Silent to the probe a moment ago: not asked, and not waited for, again.
    if (answers?.recent(index) === false) return false
    const answer = await probeOf(plan, index, ask).ask(AbortSignal.timeout(timeoutMs))
    return answer === 'unknown' ? undefined : answer === 'answered'
  }
}

/**
 * runAttempts's `watch`: for each attempt that may be hedged, one small GET of its index and one of the next source,
 * in parallel with the tool (src/retry/hedge.ts). Skipped behind a proxy: resilient's request would go direct and answer
 * another question than the tool's.
 */
export function createHedgeWatch(plan: RunPlan, { env, activity, ask = askIndex, settings = HEDGE_DEFAULTS }: HedgeWatchOptions): AttemptsDeps['watch'] {
  return (attempt, number) => {
    const index = indexUrlOf(attempt.source)
    const other = otherSource(plan, attempt, env)
    const hasNextSource = number < plan.limits.maxAttempts && other !== undefined
    if (!index || !mayHedge({ source: attempt.source, hasNextSource, networked: plan.networked, userKnobs: plan.userKnobs }) || throughProxy(plan, index, env)) return undefined
    const own = probeOf(plan, index, ask)
    const next = probeOf(plan, other!, ask)
    return watchHedge(own.host, {
      probe: asProbe(own.ask),
      other: { host: next.host, probe: asProbe(next.ask) },
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
