import { describe, expect, it } from 'vitest'
import { LatencyBook } from '../../../src/relay/hedge-delay.js'

const settings = { initialMs: 1500, minMs: 50, maxMs: 10_000 }

describe('the hedging delay, learned per source', () => {
  it('starts conservative before anything is known', () => {
    expect(new LatencyBook(settings).delayFor('pypi.org')).toBe(1500)
  })

  it('follows a fast source down after a few answers, never below the floor', () => {
    const book = new LatencyBook(settings)
    for (let i = 0; i < 10; i++) book.record('pypi.org', 20)
    expect(book.delayFor('pypi.org')).toBe(50)
  })

  it('waits about one and a half times the 95th percentile of a steady source', () => {
    const book = new LatencyBook(settings)
    for (let i = 0; i < 20; i++) book.record('tuna', 400 + i)
    expect(book.delayFor('tuna')).toBe(Math.round(1.5 * 419 + 20))
  })

  it('leaves room for the unseen after one slow answer instead of hedging every request', () => {
    const book = new LatencyBook(settings)
    book.record('slow', 900)
    expect(book.delayFor('slow')).toBe(1800)
  })

  it('does not grow on answers it lost: a censored sample says only "at least this slow"', () => {
    const book = new LatencyBook(settings)
    book.record('index', 1510, true)
    expect(book.delayFor('index')).toBe(1500)
  })

  it('after two answers lost to another source, waits no longer than that source usually needs', () => {
    const book = new LatencyBook(settings)
    book.record('index', 1510, true)
    expect(book.delayFor('index')).toBe(1500)
    for (let i = 0; i < 2; i++) {
      book.record('index', 1510, true)
      book.record('mirror', 30)
    }
    expect(book.delayFor('index')).toBe(80)
    // One answer of its own in time breaks the streak.
    book.record('index', 100)
    expect(book.delayFor('index')).toBe(400)
  })

  it('is capped, so that a hedge is always sent eventually', () => {
    const book = new LatencyBook(settings)
    for (let i = 0; i < 8; i++) book.record('very-slow', 30_000)
    expect(book.delayFor('very-slow')).toBe(10_000)
  })
})

describe('which sources are failing now', async () => {
  const { Standing } = await import('../../../src/relay/standing.js')
  it('puts a source behind the others after three answers in a row it failed or lost, and in front again for one retry every 5 s', () => {
    let now = 0
    const standing = new Standing(() => now)
    for (let i = 0; i < 2; i++) standing.record('index', false)
    expect(standing.behind('index')).toBe(false)
    standing.record('index', false)
    expect(standing.behind('index')).toBe(true)
    now = 4999
    expect(standing.behind('index')).toBe(true)
    now = 5001
    expect(standing.behind('index')).toBe(false)
    expect(standing.behind('index')).toBe(true)
    standing.record('index', true)
    now = 5002
    expect(standing.behind('index')).toBe(false)
  })
})
