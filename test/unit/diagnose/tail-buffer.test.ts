import { describe, expect, it } from 'vitest'
import { TailBuffer } from '../../../src/diagnose/tail-buffer.js'

describe('TailBuffer', () => {
  it('keeps only the last bytes, however much is pushed', () => {
    const tail = new TailBuffer(1000)
    for (let i = 0; i < 10_000; i++) tail.push(Buffer.from(`line ${i}\n`))
    const text = tail.toString()
    expect(text.length).toBeLessThanOrEqual(1000)
    expect(text.endsWith('line 9999\n')).toBe(true)
    expect(tail.totalBytes).toBeGreaterThan(80_000)
  })
})
