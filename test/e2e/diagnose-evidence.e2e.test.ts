import { execa } from 'execa'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildWheel, type BuiltWheel } from '../helpers/fake-pypi.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli } from '../helpers/run-cli.js'
import { projectWithConfig, pypiServers } from '../helpers/e2e-setup.js'

// What the diagnosis calls a failure, with the real pip against loopback indexes: a missing package only on proof (a
// 404 for the name, a listing without the version); a source that answered 5xx is a server error on that source,
// whatever pip's last line says, with the relay on and off.

interface Diagnosed { category: string; summary: string; evidence: string[]; rule: string }
let wheels: BuiltWheel[]
beforeAll(() => { wheels = [buildWheel('demo-pkg', '1.0')] })
const server = pypiServers()

function download(cwd: string, args: string[]) {
  const dest = mkdtempSync(join(tmpdir(), 'resilient-dl-'))
  const report = join(dest, 'report.json')
  return runCli(['--report', report, 'python3', '-m', 'pip', 'download', '--no-deps', '-d', join(dest, 'wheels'), ...args], { cwd })
    .then(result => ({ ...result, diagnoses: () => (JSON.parse(readFileSync(report, 'utf8')) as { attempts: { diagnosis: Diagnosed | null }[] }).attempts.map(attempt => attempt.diagnosis) }))
}
const plainPip = (args: string[]) => execa('python3', ['-m', 'pip', 'download', '--no-deps', '-d', mkdtempSync(join(tmpdir(), 'dl-')), ...args], { reject: false, env: isolatedEnv(), extendEnv: false, all: true })

describe('a missing package needs proof; a failing source is called what it is', { timeout: 240_000 }, () => {
  it.each([false, true])('a private extra index answering 503 to everything (relay %s): pip\'s exit, a server error on that index, its name never sent to the mirror', async relay => {
    const index = await server({ wheels })
    const mirror = await server({ wheels })
    const extra = await server({ wheels, fault: { kind: 'status', status: 503 } })
    const args = ['--extra-index-url', extra.url, 'privpkg']
    const plain = await plainPip(['--index-url', index.url, ...args])
    expect(plain.all).toMatch(/No matching distribution found for privpkg/)
    const result = await download(projectWithConfig({ relay, pypi: { index: index.url, mirrors: [mirror.url] } }), args)
    expect(result.exitCode, result.all).toBe(plain.exitCode)
    const last = result.diagnoses().at(-1)!
    expect(last).toMatchObject({ category: 'server_error', summary: `127.0.0.1:${extra.port} answered HTTP 503` })
    expect(result.stderr).not.toMatch(/check the (?:package )?name/i)
    expect(mirror.requests.filter(path => path.includes('privpkg'))).toEqual([])
  })

  it('a name neither the index nor a private extra index has: no proof from an extra asked without its credentials, and no mirror asked for the name', async () => {
    const index = await server({ wheels })
    const mirror = await server({ wheels })
    const extra = await server({ wheels })
    const result = await download(projectWithConfig({ pypi: { index: index.url, mirrors: [mirror.url] } }), ['--extra-index-url', extra.url, 'privpkg'])
    expect(result.exitCode, result.all).toBe(1)
    expect(result.diagnoses()).toEqual([expect.objectContaining({ category: 'other', rule: 'pip-nothing-listed' })])
    expect(result.stderr).toMatch(/pip also read http:\/\/127\.0\.0\.1:\d+\/simple\/?: no mirror of the main index is asked/)
    expect(mirror.requests.filter(path => path.includes('privpkg'))).toEqual([])
  })

  it('a sole index answering 503 to everything through the relay: the relay\'s own count of its answers says server error', async () => {
    const index = await server({ wheels, fault: { kind: 'status', status: 503 } })
    const result = await download(projectWithConfig({ relay: true, maxWaitSeconds: 1, pypi: { index: index.url, mirrors: [] } }), ['demo-pkg'])
    expect(result.exitCode, result.all).toBe(1)
    const first = result.diagnoses()[0]!
    expect(first).toMatchObject({ category: 'server_error', rule: 'any-source-server-error' })
    expect(first.evidence[0]).toMatch(/^resilient's relay asked 127\.0\.0\.1:\d+: \d+ answer\(s\), every one a server error \(HTTP 5xx\)/)
    expect(result.stderr).not.toMatch(/check the (?:package )?name/i)
  })

  it('a name the only index answers 404 for: resilient\'s own request is the proof, and the run stops there', async () => {
    const index = await server({ wheels })
    const result = await download(projectWithConfig({ pypi: { index: index.url, mirrors: [] } }), ['no-such-pkg'])
    expect(result.exitCode, result.all).toBe(1)
    const diagnoses = result.diagnoses()
    expect(diagnoses).toHaveLength(1)
    expect(diagnoses[0]).toMatchObject({ category: 'package_not_found', summary: `127.0.0.1:${index.port} has no no-such-pkg (HTTP 404 for its page)` })
    expect(diagnoses[0]!.evidence[0]).toBe(`resilient asked 127.0.0.1:${index.port} for /simple/no-such-pkg/: HTTP 404`)
  })
})
