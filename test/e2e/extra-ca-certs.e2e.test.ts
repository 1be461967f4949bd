import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { LAUNCHER, standIn } from '../helpers/process-helpers.js'
import { projectWithConfig } from '../helpers/e2e-setup.js'
import { buildTarball, startNpmRegistry, type NpmRegistry } from '../support/npm-registry.js'
import { makeCertificates, startTlsFront, type Certificates } from '../support/tls-front.js'

// The launcher starts Node without NODE_EXTRA_CA_CERTS, which Node would parse before any code runs (src/own-trust.ts):
// the tool still gets the variable exactly as the person set it, and resilient's own connections still trust it.
let certificates: Certificates
beforeAll(() => {
  certificates = makeCertificates()
})
const closing: { close(): Promise<void> }[] = []
afterEach(async () => {
  await Promise.all(closing.splice(0).map(server => server.close()))
})

// Records the variable as the tool got it, and whether the Node that started the tool (resilient's, its parent) was
// itself started with it: /proc/<pid>/environ is the environment a process was started with.
const RECORDS = `case "$1" in list)
  printf 'tool=%s\\n' "\${NODE_EXTRA_CA_CERTS-unset}" >> "$LOG"
  printf 'resilient-started-with=%s\\n' "$(tr '\\0' '\\n' < /proc/$PPID/environ | grep -c '^NODE_EXTRA_CA_CERTS=')" >> "$LOG";;
esac
`

describe('NODE_EXTRA_CA_CERTS through the launcher', () => {
  it.each([
    ['a file', { NODE_EXTRA_CA_CERTS: '/etc/ssl/extra ca.pem' }, 'tool=/etc/ssl/extra ca.pem'],
    ['empty', { NODE_EXTRA_CA_CERTS: '' }, 'tool='],
    ['unset', {}, 'tool=unset'],
  ])('reaches the tool exactly as set (%s), while resilient\'s own Node starts without it', async (_, extra, expected) => {
    const tool = standIn('pip', RECORDS, extra)
    const result = await execa(LAUNCHER, ['pip', 'list'], { env: tool.env, extendEnv: false, reject: false, stdin: 'ignore' })
    expect(result.exitCode, result.stderr).toBe(0)
    expect(tool.lines()).toEqual([expected, 'resilient-started-with=0'])
    // Node says nothing of a file it never read: the plain tool's output, not a warning of resilient's own.
    expect(result.stderr).not.toMatch(/extra certs/)
  })

  it('npm through the relay to an https registry that only NODE_EXTRA_CA_CERTS makes trusted: the relay trusts it too', async () => {
    const registry: NpmRegistry = await startNpmRegistry({ packages: [buildTarball({ name: 'left-pad-x', version: '1.0.0' })] })
    closing.push(registry)
    const front = await startTlsFront(registry.port, certificates, { clientCertificate: false })
    closing.push(front)
    const url = `https://127.0.0.1:${front.port}/`
    registry.servedAt(url)
    const cwd = projectWithConfig({ relay: true, npm: { index: url, mirrors: [] } })
    writeFileSync(join(cwd, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }))
    // No global npmrc (this machine's names a cafile, which replaces Node's store for npm and for the relay alike).
    const env = isolatedEnv({ NODE_EXTRA_CA_CERTS: certificates.server, npm_config_globalconfig: '/dev/null' })
    const report = join(mkdtempSync(join(tmpdir(), 'resilient-extra-ca-')), 'report.json')
    const result = await execa(LAUNCHER, ['--report', report, 'npm', 'install', '--no-audit', '--no-fund', 'left-pad-x'], { cwd, env, extendEnv: false, reject: false, stdin: 'ignore', all: true, timeout: 120_000 })
    expect(result.exitCode, result.all).toBe(0)
    const { attempts, relay } = JSON.parse(readFileSync(report, 'utf8'))
    expect(attempts).toHaveLength(1)
    // The relay fetched the packument and the tarball over https from the registry itself.
    expect(Object.values(relay.sources as Record<string, { served: number; failures: object }>)).toEqual([expect.objectContaining({ served: 2, failures: {} })])
    expect(registry.requests).toEqual(expect.arrayContaining(['/left-pad-x', '/left-pad-x/-/left-pad-x-1.0.0.tgz']))
  })
})
