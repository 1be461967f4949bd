import { afterEach, describe, expect, it } from 'vitest'
import { buildWheel, startPypiServer, type PypiServer } from '../helpers/fake-pypi.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli } from '../helpers/run-cli.js'
import { projectWithConfig } from '../helpers/e2e-setup.js'

// `resilient mirrors test` against local PEP 503 servers: four that accept and never answer, one healthy, and an
// index that answers 503.
const servers: PypiServer[] = []
afterEach(async () => { await Promise.all(servers.splice(0).map(server => server.close())) })
async function server(fault: Parameters<typeof startPypiServer>[0]['fault'] = { kind: 'ok' }): Promise<PypiServer> {
  const started = await startPypiServer({ wheels: [buildWheel('pip', '24.0')], fault })
  servers.push(started)
  return started
}

interface Probe { id: string; url: string; ok: boolean; status?: number; latencyMs?: number; error?: string }

async function fiveMirrorsFourHanging() {
  const hanging = await Promise.all([1, 2, 3, 4].map(() => server({ kind: 'blackhole' })))
  const healthy = await server()
  const index = await server({ kind: 'status', status: 503 })
  const mirrors = [hanging[0]!.url, hanging[1]!.url, healthy.url, hanging[2]!.url, hanging[3]!.url]
  return { hanging, healthy, index, cwd: projectWithConfig({ pypi: { index: index.url, mirrors } }) }
}

describe('resilient mirrors test', () => {
  it('with five mirrors of which four hang, finishes within about two probe timeouts and ranks the healthy one first', async () => {
    const { healthy, index, cwd } = await fiveMirrorsFourHanging()
    // What starting the CLI costs on this machine at the same moment (CI machines are shared): the allowance on top.
    const timed = async (args: string[]) => {
      const started = Date.now()
      return { result: await runCli(args, { cwd }), elapsed: Date.now() - started }
    }
    const [startup, { result, elapsed }] = await Promise.all([timed(['config']), timed(['mirrors', 'test', 'pypi', '--timeout', '3', '--json'])])
    const startupMs = startup.elapsed
    expect(result.exitCode, result.all).toBe(0)
    const output = JSON.parse(result.stdout) as { elapsedMs: number; ecosystems: { ecosystem: string; results: Probe[] }[] }
    // The probes themselves: about one timeout, not six; the whole command, that plus starting the CLI.
    expect(output.elapsedMs).toBeGreaterThanOrEqual(3000)
    expect(output.elapsedMs).toBeLessThan(2 * 3000)
    expect(elapsed).toBeLessThan(2 * 3000 + startupMs)
    const [section] = output.ecosystems
    expect(section!.ecosystem).toBe('pypi')
    expect(section!.results[0]).toMatchObject({ url: healthy.url, ok: true, status: 200 })
    expect(section!.results[0]!.latencyMs).toBeLessThan(3000)
    expect(section!.results.slice(1).every(probe => !probe.ok && probe.latencyMs === undefined)).toBe(true)
    expect(section!.results.find(probe => probe.url === index.url)).toMatchObject({ ok: false, status: 503, error: 'HTTP 503' })
    expect(section!.results.filter(probe => probe.error === 'no answer in 3 s')).toHaveLength(4)
    expect(healthy.requests).toEqual(['/simple/pip/'])
  })

  it('prints a ranked table, and remembers the results as health', async () => {
    const { healthy, cwd } = await fiveMirrorsFourHanging()
    const env = isolatedEnv()
    const result = await runCli(['mirrors', 'test', 'pip', '--timeout', '5'], { cwd, env })
    expect(result.exitCode, result.all).toBe(0)
    const lines = result.stdout.trim().split('\n')
    expect(lines[0]).toBe('pypi: the PEP 503 page of pip, all at once, timeout 5 s')
    expect(lines[1]).toMatch(new RegExp(`^ {2}1 +127\\.0\\.0\\.1:${healthy.port} +${healthy.url.replace(/[./]/g, '\\$&')} +\\d+ ms {2}HTTP 200$`))
    expect(lines.slice(2).every(line => /^ {2}✖ /.test(line))).toBe(true)
    expect(lines.filter(line => line.endsWith('no answer in 5 s'))).toHaveLength(4)
    expect(lines.filter(line => line.endsWith('HTTP 503'))).toHaveLength(1)

    const listed = await runCli(['mirrors', 'list', 'pypi', '--json'], { cwd, env })
    const mirrors = JSON.parse(listed.stdout).ecosystems[0].mirrors as { url: string; summary: string; inUse: boolean }[]
    expect(mirrors.find(mirror => mirror.url === healthy.url)!.summary).toMatch(/^ok \(1 of 1 recent ok, \d+ ms\)$/)
    expect(mirrors[1]!.summary).toBe('failing (0 of 1 recent ok; last failure: timeout)')
  })

  it('exits 1 when no mirror answers', async () => {
    const dead = await Promise.all([1, 2].map(() => server({ kind: 'status', status: 502 })))
    const cwd = projectWithConfig({ pypi: { index: dead[0]!.url, mirrors: [dead[1]!.url] } })
    // A timeout the 502s are sure to beat on a loaded machine: this test is about the answers, not the timeout.
    const result = await runCli(['mirrors', 'test', 'pypi', '--timeout', '10'], { cwd })
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toMatch(/✖ .* HTTP 502\n.*✖ .* HTTP 502/)
  })

  it('refuses in offline mode, and rejects an unknown ecosystem', async () => {
    const offline = await runCli(['--offline', 'mirrors', 'test', 'pypi'])
    expect(offline.exitCode).toBe(64)
    expect(offline.stderr).toMatch(/Offline mode is on \(offline, from --offline\)/)
    const unknown = await runCli(['mirrors', 'test', 'maven'])
    expect(unknown.exitCode).toBe(64)
    expect(unknown.stderr).toMatch(/"maven" is not an ecosystem resilient knows/)
  })
})
