import { Readable } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { RelayContext } from '../../../src/relay/context.js'
import { HashBook } from '../../../src/relay/expected-hash.js'
import { LatencyBook } from '../../../src/relay/hedge-delay.js'
import { Ledger } from '../../../src/relay/ledger.js'
import { PageAuthority } from '../../../src/relay/page-authority.js'
import { racePage } from '../../../src/relay/page-race.js'
import { PYPI_PROTOCOL } from '../../../src/relay/protocol-table.js'
import type { RaceOutcome } from '../../../src/relay/race.js'
import { Standing } from '../../../src/relay/standing.js'
import type { RelaySource } from '../../../src/relay/types.js'
import type { Upstream } from '../../../src/relay/upstream.js'

// Each source answers after `ms` with a status (and headers), or fails with a Node error code, or never (`hang`).
type Script = { ms: number; status?: number; headers?: Record<string, string>; error?: string; hang?: boolean }
const source = (id: string): RelaySource => ({ id, pages: `https://${id}/simple/`, files: `https://${id}/` })
const INDEX = source('index')
const MIRROR = source('mirror')

function contextWith(scripts: Record<string, Script[]>, settings = { failover: true, silentMs: 5000 }) {
  const asked: string[] = []
  const cancelled: string[] = []
  const upstream: Upstream = (url, init) => new Promise((resolve, reject) => {
    const id = new URL(url).host
    asked.push(id)
    const script = scripts[id]!.shift() ?? { ms: 1, status: 200 }
    const timer = script.hang ? undefined : setTimeout(() => script.error ? reject(Object.assign(new Error(script.error), { code: script.error }))
      : resolve({ status: script.status ?? 200, headers: script.headers ?? {}, body: Readable.from([]), url }), script.ms)
    init.signal.addEventListener('abort', () => {
      cancelled.push(id)
      clearTimeout(timer)
      reject(new Error('aborted'))
    })
  })
  const pages = new PageAuthority(settings, INDEX.id)
  const context: RelayContext = { protocol: PYPI_PROTOCOL, sources: [INDEX, MIRROR], index: INDEX, pages, base: 'http://127.0.0.1:1/', roots: [], tarballRoot: '',
    latency: new LatencyBook({ initialMs: 1000, minMs: 50, maxMs: 10_000 }), standing: new Standing(() => Date.now()), ledger: new Ledger(), hashes: new HashBook(), upstream,
    now: () => Date.now(), cooling: new Map(), retryAfterBoundMs: 10_000, badCopies: new Map() }
  const run = () => racePage(context, { path: 'simple/x/', method: 'GET', headers: {}, upstreamOf: s => `${s.pages}x/`, signal: new AbortController().signal })
  return { context, pages, asked, cancelled, run }
}

async function settle(promise: Promise<RaceOutcome>, ms: number): Promise<RaceOutcome> {
  await vi.advanceTimersByTimeAsync(ms)
  return promise
}
const winner = (outcome: RaceOutcome) => outcome.won ? [outcome.source.id, outcome.response.status] : [outcome.status]

beforeEach(() => void vi.useFakeTimers())
afterEach(() => void vi.useRealTimers())

describe('a page: the index is the answer', () => {
  it('waits for an index that is slow, past every hedging delay, and never asks the mirror', async () => {
    const { asked, pages, run } = contextWith({ index: [{ ms: 4000 }], mirror: [] })
    expect(winner(await settle(run(), 4100))).toEqual(['index', 200])
    expect(asked).toEqual(['index'])
    expect(pages.summary()).toBeUndefined()
  })

  it('asks the index again at once after one 503 or reset, as the tool would, and takes its page', async () => {
    for (const failure of [{ ms: 10, status: 503 }, { ms: 10, error: 'ECONNRESET' }, { ms: 10, error: 'ECONNREFUSED' }]) {
      const { asked, run } = contextWith({ index: [failure, { ms: 10 }], mirror: [] })
      expect(winner(await settle(run(), 100))).toEqual(['index', 200])
      expect(asked).toEqual(['index', 'index'])
    }
  })

  it('goes to the mirror after the index failed twice, and counts the page as the mirror\'s', async () => {
    const { asked, pages, run } = contextWith({ index: [{ ms: 10, status: 503 }, { ms: 10, status: 502 }], mirror: [{ ms: 10 }] })
    expect(winner(await settle(run(), 100))).toEqual(['mirror', 200])
    expect(asked).toEqual(['index', 'index', 'mirror'])
    expect(pages.summary()).toEqual({ index: 'index', because: 'server-error', pages: { mirror: 1 } })
  })

  it('waits out a 429\'s Retry-After within the bound for the index before any mirror', async () => {
    const { asked, run } = contextWith({ index: [{ ms: 10, status: 429, headers: { 'retry-after': '2' } }, { ms: 10 }], mirror: [] })
    const outcome = run()
    await vi.advanceTimersByTimeAsync(1500)
    expect(asked).toEqual(['index'])
    expect(winner(await settle(outcome, 1000))).toEqual(['index', 200])
  })

  it('leaves an index silent past the bound for the mirror, and still takes the index\'s page if it comes first', async () => {
    const late = contextWith({ index: [{ ms: 5300 }], mirror: [{ ms: 600 }] })
    const outcome = late.run()
    await vi.advanceTimersByTimeAsync(4900)
    expect(late.asked).toEqual(['index'])
    expect(winner(await settle(outcome, 500))).toEqual(['index', 200])
    expect(late.asked).toEqual(['index', 'mirror'])
    const dead = contextWith({ index: [{ ms: 0, hang: true }], mirror: [{ ms: 100 }] })
    expect(winner(await settle(dead.run(), 5200))).toEqual(['mirror', 200])
    expect(dead.pages.summary()).toEqual({ index: 'index', because: 'timeout', pages: { mirror: 1 } })
  })

  it('once the index is down, asks it and the mirror together: a dead index costs its silence once per run', async () => {
    const { asked, pages, run } = contextWith({ index: [{ ms: 0, hang: true }, { ms: 0, hang: true }], mirror: [{ ms: 100 }, { ms: 100 }] })
    await settle(run(), 5200)
    expect(pages.down).toBe(true)
    expect(winner(await settle(run(), 150))).toEqual(['mirror', 200])
    expect(asked).toEqual(['index', 'mirror', 'index', 'mirror'])
    expect(pages.summary()?.pages).toEqual({ mirror: 2 })
  })

  it('takes the index back as soon as it answers again: the probe left running after the mirror won', async () => {
    const { pages, run, cancelled } = contextWith({ index: [{ ms: 0, hang: true }, { ms: 300 }, { ms: 50 }], mirror: [{ ms: 100 }, { ms: 100 }, { ms: 100 }] })
    await settle(run(), 5200)
    expect(winner(await settle(run(), 150))).toEqual(['mirror', 200])
    expect(cancelled.filter(id => id === 'index')).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(300)
    expect(pages.down).toBe(false)
    expect(winner(await settle(run(), 100))).toEqual(['index', 200])
  })

  it('never fails over when the run may not (a private source beside the index): the index\'s failure is the tool\'s', async () => {
    const { asked, run } = contextWith({ index: [{ ms: 10, status: 503 }], mirror: [{ ms: 10 }] }, { failover: false, silentMs: 5000 })
    expect(winner(await settle(run(), 100))).toEqual([503])
    expect(asked).toEqual(['index'])
  })

  it('never passes a mirror\'s 404 on as the answer: the index\'s own failure is', async () => {
    const { run } = contextWith({ index: [{ ms: 10, status: 503 }, { ms: 10, status: 503 }], mirror: [{ ms: 10, status: 404 }] })
    expect(winner(await settle(run(), 100))).toEqual([503])
  })
})
