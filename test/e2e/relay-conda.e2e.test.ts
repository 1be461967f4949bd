import { describe, expect, it } from 'vitest'
import type { RelaySource } from '../../src/relay/types.js'
import { replayCondaInstall } from '../helpers/conda-replay.js'
import { NO_HEDGE, relays, SECRET } from '../helpers/relay-setup.js'
import { channelPackage, channelServers, type ChannelServer } from '../support/conda-channel.js'

// conda's and pixi's requests for an install (test/fixtures/replay/{conda,pixi}-install.json, from conda 26.7's and
// rattler's source), replayed against the relay in front of local conda channels with faults, and against the
// channels alone (the plain tool).
const DEMO_1 = channelPackage('demo', '1.0', { depends: ['dep'] })
const DEMO_2 = channelPackage('demo', '2.0', { depends: ['dep'] })
const DEP = channelPackage('dep', '1.0', { subdir: 'noarch', size: 2_000_000 })
const PACKAGES = [DEMO_1, DEMO_2, DEP]
const channel = channelServers({ packages: PACKAGES })
const relay = relays()
const source = (server: ChannelServer, id: string): RelaySource => ({ id, pages: server.url, files: server.url })
const DEAD: RelaySource = { id: 'index', pages: 'http://127.0.0.1:9/', files: 'http://127.0.0.1:9/' }
const fileFault = (fault: { kind: 'truncate'; atFraction: number } | { kind: 'corrupt' }) => ({ isFile }: { isFile: boolean }) => isFile ? fault : { kind: 'ok' as const }
const through = (front: { base: string }) => `${front.base}t/${SECRET}/`

describe.each(['conda', 'pixi'] as const)('%s through the relay (replayed)', tool => {
  // The tools' backoff shortened: the relay's behaviour is under test, not their sleeps.
  const install = (alias: string, specs = ['demo']) => replayCondaInstall({ tool, alias, channel: 'conda-forge', specs, backoffMs: 10 })

  it('installs from the index alone: the compressed-repodata probes are answered 404 by the relay and never reach the index', async () => {
    const index = await channel()
    const front = await relay({ protocol: 'conda', sources: [source(index, 'index')] })
    const result = await install(through(front))
    expect(result).toMatchObject({ installed: { demo: '2.0', dep: '1.0' } })
    expect(result.requests.filter(request => request.path.endsWith('.zst')).map(request => request.status)).toEqual([404, 404])
    expect(index.requests.some(path => path.endsWith('.zst'))).toBe(false)
    expect(index.requests).toContain('/conda-forge/linux-64/demo-2.0-h0_0.conda')
    expect(index.authorizations).toEqual([])
  })

  it('serves only requests that carry the secret, in the path or as Basic', async () => {
    const front = await relay({ protocol: 'conda', sources: [source(await channel(), 'index')] })
    expect((await fetch(`${front.base}conda-forge/noarch/repodata.json`)).status).toBe(401)
    expect((await fetch(`${front.base}t/wrong/conda-forge/noarch/repodata.json`)).status).toBe(401)
    expect((await fetch(`${front.base}t/${SECRET}/conda-forge/noarch/repodata.json`)).status).toBe(200)
  })

  it('passes conda\'s If-None-Match to the index and its 304 back (the second install keeps its cache)', async () => {
    const index = await channel()
    const front = await relay({ protocol: 'conda', sources: [source(index, 'index')] })
    const first = await install(through(front))
    const second = await install(through(front))
    expect(second.installed).toEqual(first.installed)
    const again = await replayCondaInstall({ tool, alias: through(front), channel: 'conda-forge', specs: [], etags: first.etags, backoffMs: 10 })
    expect(again.requests.filter(request => request.path.endsWith('/repodata.json')).map(request => request.status)).toEqual([304, 304])
  })

  it('wins one 503 on the index\'s repodata: asked again, the index answers', async () => {
    const index = await channel({ fault: ({ path }) => path.endsWith('/repodata.json') ? { kind: 'status', status: 503, times: 1 } : { kind: 'ok' } })
    const mirror = await channel()
    const front = await relay({ protocol: 'conda', sources: [source(index, 'index'), source(mirror, 'mirror')] })
    expect(await install(through(front))).toMatchObject({ installed: { demo: '2.0', dep: '1.0' } })
    expect(front.mirrorPages()).toBeUndefined()
  })

  it('wins a dead index: pages and packages from the mirror, and the run says pages came from it', async () => {
    const mirror = await channel()
    const front = await relay({ protocol: 'conda', sources: [DEAD, source(mirror, 'mirror')] })
    expect(await install(through(front))).toMatchObject({ installed: { demo: '2.0', dep: '1.0' } })
    expect(front.mirrorPages()).toMatchObject({ index: 'index', pages: { mirror: 2 } })
  })

  it('wins a break at 80 % of a package: resumed from the mirror, about 1x the file fetched in all', async () => {
    // No .zst here: the plain tool's run must reach the packages (pixi would fail on the test channel's fake .zst).
    const index = await channel({ fault: fileFault({ kind: 'truncate', atFraction: 0.8 }), zst: false })
    const mirror = await channel()
    // No hedging: on a loaded machine a package's first byte may come late enough to be asked of the mirror too,
    // whose bytes would then count against the resume this test is about.
    const front = await relay({ protocol: 'conda', sources: [source(index, 'index'), source(mirror, 'mirror')], hedge: NO_HEDGE })
    const plain = await install(index.url)
    expect(plain.error).toMatch(/terminated|Content-Length|socket|fetch failed/i)
    const [indexBefore, mirrorBefore] = [index.bytesSent(), mirror.bytesSent()]
    expect(await install(through(front))).toMatchObject({ installed: { demo: '2.0', dep: '1.0' } })
    const packageBytes = DEMO_2.bytes.length + DEP.bytes.length
    const sent = index.bytesSent() - indexBefore + mirror.bytesSent() - mirrorBefore
    // The repodata pages are small here; what counts is the packages: at most 1.1x their bytes.
    expect(sent).toBeLessThan(1.1 * packageBytes + 20_000)
    expect(front.events.filter(event => event.kind === 'resume').length).toBe(2)
  })

  it('refuses a package that fails the repodata\'s sha256: the tool never gets the bad bytes, and its next try gets the good copy', async () => {
    const index = await channel({ fault: fileFault({ kind: 'corrupt' }) })
    const mirror = await channel()
    const front = await relay({ protocol: 'conda', sources: [source(index, 'index'), source(mirror, 'mirror')] })
    // Each bad copy ends as a broken transfer, never handed over whole (conda keeps a .partial, not a corrupt
    // package); each next try (resilient's restart) asks the mirror first for that file: one try per package at most.
    const tries = [await install(through(front))]
    while (!tries.at(-1)!.installed && tries.length <= 2) tries.push(await install(through(front)))
    expect(tries.map(result => result.error ?? '').join()).not.toMatch(/ChecksumMismatch/)
    expect(front.events.filter(event => event.kind === 'hash-mismatch').length).toBeGreaterThan(0)
    expect(tries.at(-1)!.installed).toEqual({ demo: '2.0', dep: '1.0' })
  })

  it('never loses a 429 with Retry-After on the index', async () => {
    const index = await channel({ fault: { kind: 'status', status: 429, retryAfter: 1, times: 1 } })
    const mirror = await channel()
    const front = await relay({ protocol: 'conda', sources: [source(index, 'index'), source(mirror, 'mirror')] })
    expect(await install(through(front))).toMatchObject({ installed: { demo: '2.0', dep: '1.0' } })
  })

  it('keeps the index\'s versions when the index is slow and a lagging mirror is fast', async () => {
    const index = await channel({ fault: ({ isFile }) => isFile ? { kind: 'ok' } : { kind: 'delay', ms: 1500 } })
    const mirror = await channel({ missing: ['demo==2.0'] })
    const front = await relay({ protocol: 'conda', sources: [source(index, 'index'), source(mirror, 'mirror')] })
    expect(await install(through(front))).toMatchObject({ installed: { demo: '2.0', dep: '1.0' } })
    expect(front.mirrorPages()).toBeUndefined()
  })

  it('with no mirror, a dead index fails as it would without the relay', async () => {
    const front = await relay({ protocol: 'conda', sources: [DEAD], pages: { silentMs: 1000 } })
    const result = await install(through(front))
    expect(result.installed).toBeUndefined()
    expect(result.error).toMatch(/HTTP 5\d\d for (linux-64|noarch)\/repodata\.json/)
  })
})
