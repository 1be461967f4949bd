import { fetchFor, maySendCredentials } from './probe-fetch.js'
import { probeRequest } from './probe-targets.js'
import type { Ecosystem } from './types.js'
import { takeBasicAuth } from '../secrets/url.js'

export interface ProbeTarget {
  ecosystem: Ecosystem
  id: string
  url: string
}

export interface ProbeResult extends ProbeTarget {
  ok: boolean
  /** The final HTTP status, redirects followed. */
  status?: number
  /** Time to the answer and its first 64 KiB; only for answers with a 2xx status. */
  latencyMs?: number
  /** Why it failed: `HTTP 503`, `no answer in 5 s`, `ECONNREFUSED`. */
  error?: string
}

type Fetch = typeof globalThis.fetch
const BODY_LIMIT = 64 * 1024

async function readSome(body: ReadableStream<Uint8Array> | null): Promise<void> {
  if (!body) return
  const reader = body.getReader()
  let received = 0
  while (received < BODY_LIMIT) {
    const { done, value } = await reader.read()
    if (done) return
    received += value.byteLength
  }
  await reader.cancel()
}

function reasonOf(error: unknown, timeoutMs: number): string {
  const err = error as Error & { cause?: { code?: string; message?: string } }
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return `no answer in ${timeoutMs / 1000} s`
  return err.cause?.code ?? err.cause?.message ?? err.message
}

/** One probe; credentials in the URL go into an Authorization header (fetch refuses them in URLs). */
async function probeOne(target: ProbeTarget, fetch: Fetch, timeoutMs: number): Promise<ProbeResult> {
  const request = probeRequest(target.ecosystem, target.url)
  const url = new URL(request.url)
  const headers: Record<string, string> = { 'user-agent': 'resilient (mirror probe)', ...request.headers }
  // Never over plain http to another machine: the probe goes without them, and says so.
  const withheld = Boolean(url.username) && !maySendCredentials(request.url)
  const authorization = takeBasicAuth(url)
  if (authorization && !withheld) headers.authorization = authorization
  const started = performance.now()
  try {
    const response = await fetch(url, { headers, redirect: 'follow', signal: AbortSignal.timeout(timeoutMs) })
    if (!response.ok) {
      await response.body?.cancel().catch(() => {})
      return { ...target, ok: false, status: response.status, error: `HTTP ${response.status}${withheld ? ' (credentials not sent over plain http)' : ''}` }
    }
    await readSome(response.body)
    return { ...target, ok: true, status: response.status, latencyMs: Math.round(performance.now() - started) }
  } catch (error) {
    return { ...target, ok: false, error: reasonOf(error, timeoutMs) }
  }
}

/** Probes every target at once: the whole test takes about one timeout, however many mirrors hang. */
export async function probeMirrors(targets: ProbeTarget[], options: { timeoutMs: number; env: NodeJS.ProcessEnv; fetch?: Fetch }): Promise<ProbeResult[]> {
  const fetch = options.fetch ?? await fetchFor(options.env)
  return Promise.all(targets.map(target => probeOne(target, fetch, options.timeoutMs)))
}

/** Answers first, fastest first; failures after them (an error status is a failure, never a speed). */
export function rankResults(results: ProbeResult[]): ProbeResult[] {
  return [...results].sort((a, b) => (a.ok === b.ok ? (a.latencyMs ?? 0) - (b.latencyMs ?? 0) : a.ok ? -1 : 1))
}
