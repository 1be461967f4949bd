import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import { describe, expect, it } from 'vitest'
import { prepareFifos, takeFifos, takeFifosWhenMade } from '../../../src/exec/output/fifos.js'
import { startWatchdog } from '../../../src/exec/watchdog.js'

describe('FIFOs for the tool\'s pipes', () => {
  it('are made on demand, 0600 in a private 0700 directory, which remove() deletes', () => {
    const fifos = takeFifos(2)
    expect(fifos.paths).toHaveLength(2)
    for (const path of fifos.paths) {
      expect(statSync(path).isFIFO()).toBe(true)
      expect(statSync(path).mode & 0o777).toBe(0o600)
    }
    expect(statSync(dirname(fifos.paths[0]!)).mode & 0o777).toBe(0o700)
    fifos.remove()
    expect(existsSync(dirname(fifos.paths[0]!))).toBe(false)
  })

  it('prepared in the background, are the ones taken once ready; the next take makes new ones', async () => {
    const prepared = await prepareFifos(2)
    expect(prepared).toHaveLength(2)
    const taken = takeFifos(2)
    expect(taken.paths).toEqual(prepared)
    const next = takeFifos(1)
    expect(dirname(next.paths[0]!)).not.toBe(dirname(taken.paths[0]!))
    for (const fifos of [taken, next]) {
      expect(statSync(fifos.paths[0]!).isFIFO()).toBe(true)
      fifos.remove()
    }
  })

  it('prepared, are made by the watchdog the next attempt takes: one process started for both', async () => {
    const prepared = await prepareFifos(2)
    const taken = takeFifos(2)
    const watchdog = startWatchdog()
    const argv = readFileSync(`/proc/${watchdog.pid}/cmdline`, 'utf8').split('\0').filter(Boolean)
    expect(argv.slice(-2)).toEqual(prepared)
    // The attempt after it starts a watchdog of its own, which makes nothing.
    const next = startWatchdog()
    expect(next.pid).not.toBe(watchdog.pid)
    expect(readFileSync(`/proc/${next.pid}/cmdline`, 'utf8').split('\0').filter(Boolean).at(-1)).toBe('resilient-watchdog')
    for (const dog of [watchdog, next]) dog.cancel()
    taken.remove()
  })

  it('prepared and made, are taken even before the watchdog\'s word is read (a busy event loop, a loaded machine)', () => {
    void prepareFifos(2)
    const watchdog = startWatchdog()
    const paths = readFileSync(`/proc/${watchdog.pid}/cmdline`, 'utf8').split('\0').filter(Boolean).slice(-2)
    // No await since prepareFifos: the watchdog's line cannot have been read when the take comes.
    const deadline = Date.now() + 20_000
    while (!paths.every(path => existsSync(path)) && Date.now() < deadline) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10)
    const taken = takeFifos(2)
    expect(taken.paths).toEqual(paths)
    watchdog.cancel()
    taken.remove()
  })

  it('prepared but not made yet, are waited for by the tool\'s output pipes: no second mkfifo beside the watchdog\'s', async () => {
    void prepareFifos(2)
    const watchdog = startWatchdog()
    const paths = readFileSync(`/proc/${watchdog.pid}/cmdline`, 'utf8').split('\0').filter(Boolean).slice(-2)
    const taken = await takeFifosWhenMade(2)
    expect(taken.paths).toEqual(paths)
    for (const path of taken.paths) expect(statSync(path).isFIFO()).toBe(true)
    watchdog.cancel()
    taken.remove()
  })

  it('prepared but not made yet, are not waited for by a synchronous take (the input\'s pipe): it makes its own', () => {
    void prepareFifos(1)
    const taken = takeFifos(1)
    expect(statSync(taken.paths[0]!).isFIFO()).toBe(true)
    taken.remove()
  })

})
