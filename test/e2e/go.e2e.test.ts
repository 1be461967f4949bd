import { afterEach, expect, it } from 'vitest'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli } from '../helpers/run-cli.js'
import { startGoProxy, type GoProxy } from '../helpers/go-proxy.js'
import { projectWithConfig } from '../helpers/e2e-setup.js'
import { command, describeNeeding } from '../helpers/requirements.js'

// The real go (Debian's golang-go, installed by .ci/run) against module proxies on 127.0.0.1, through the built CLI.
const MODULE = 'example.test/hello'
// No checksum database here: the test module is not on sum.golang.org. -modcacherw lets the temp folders go.
const env = () => isolatedEnv({ GONOSUMDB: 'example.test', GOFLAGS: '-modcacherw', GO111MODULE: 'on' })

describeNeeding(command('go'), 'resilient go (real go)', () => {
  const proxies: GoProxy[] = []
  afterEach(async () => { await Promise.all(proxies.splice(0).map(proxy => proxy.close())) })

  it('recovers from a 503 on the mirror through GOPROXY', async () => {
    const primary = await startGoProxy(MODULE, 'v1.0.0', { kind: 'status', status: 503 })
    const mirror = await startGoProxy(MODULE, 'v1.0.0')
    proxies.push(primary, mirror)
    const project = projectWithConfig({ go: { index: primary.url, mirrors: [mirror.url] } })
    const result = await runCli(['go', 'mod', 'download', '-json', `${MODULE}@v1.0.0`], { cwd: project, env: env() })
    expect(result.exitCode, result.all).toBe(0)
    expect(primary.requests.length).toBeGreaterThan(0)
    expect(mirror.requests).toContain(`/${MODULE}/@v/v1.0.0.zip`)
    expect(result.stderr).toContain(`GOPROXY=${mirror.url},direct go mod download -json ${MODULE}@v1.0.0`)
    // stdout passes through from every attempt: the failed one's JSON (with "Error"), then the download's.
    const last = JSON.parse(result.stdout.slice(result.stdout.lastIndexOf('{\n')))
    expect(last).toMatchObject({ Path: MODULE, Version: 'v1.0.0', Zip: expect.stringMatching(/v1\.0\.0\.zip$/) })
  })

  it('never replaces a private GOPROXY', async () => {
    const primary = await startGoProxy(MODULE, 'v1.0.0', { kind: 'status', status: 503 })
    const mirror = await startGoProxy(MODULE, 'v1.0.0')
    proxies.push(primary, mirror)
    const project = projectWithConfig({ go: { mirrors: [mirror.url] }, maxAttempts: 2, maxWaitSeconds: 1 })
    const result = await runCli(['go', 'mod', 'download', `${MODULE}@v1.0.0`], { cwd: project, env: { ...env(), GOPROXY: `${primary.url},direct` } })
    expect(result.exitCode).not.toBe(0)
    expect(primary.requests.length).toBeGreaterThan(0)
    expect(mirror.requests).toEqual([])
  })
})
