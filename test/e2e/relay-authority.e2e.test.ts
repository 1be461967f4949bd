import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { beforeAll, describe, expect, it } from 'vitest'
import type { FaultChoice } from '../../src/demo/fault-server.js'
import { buildWheel, type BuiltWheel } from '../../src/demo/wheel.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli } from '../helpers/run-cli.js'
import { filesIn, projectWithConfig, pypiServers } from '../helpers/e2e-setup.js'

// "Pages are authority, files are content" (docs/relay.md): through the relay, which versions exist and which
// package a name means come from the index, whichever source answers first. Each case runs the real pip through
// the built CLI with the relay on, beside plain pip against the same kind of servers.
let wheels: BuiltWheel[]
beforeAll(() => {
  wheels = [buildWheel('demo-pkg', '1.0'), buildWheel('demo-pkg', '2.0'), buildWheel('demo-pkg', '6.6.6'), buildWheel('privpkg', '9.9.9')]
})
const server = pypiServers()
const pagesOnly = (fault: FaultChoice) => ({ fault: (request: Parameters<Exclude<FaultChoice, { kind: string }>>[0]) => request.isFile ? { kind: 'ok' as const } : typeof fault === 'function' ? fault(request) : fault })
const slowPages = pagesOnly({ kind: 'delay', ms: 1500 })
const onePage503 = (page: string) => pagesOnly(({ path, count }) => path === page && count === 1 ? { kind: 'status', status: 503 } : { kind: 'ok' })

async function throughResilient(config: unknown, args: string[], env = isolatedEnv()) {
  const cwd = projectWithConfig({ relay: true, ...config as object })
  const dest = mkdtempSync(join(tmpdir(), 'resilient-authority-'))
  const report = join(env.HOME!, 'report.json')
  const result = await runCli(['--report', report, 'python3', '-m', 'pip', 'download', '--no-deps', '-d', dest, ...args], { cwd, env })
  let parsed: { relay?: { mirrorPages?: unknown } } | undefined
  try {
    parsed = JSON.parse(readFileSync(report, 'utf8'))
  } catch {
    parsed = undefined
  }
  return { ...result, files: filesIn(dest), report: parsed }
}

async function plainPip(indexUrl: string, args: string[]) {
  const dest = mkdtempSync(join(tmpdir(), 'resilient-authority-plain-'))
  const result = await execa('python3', ['-m', 'pip', 'download', '--no-deps', '-d', dest, '--index-url', indexUrl, ...args], { reject: false, all: true, env: isolatedEnv(), extendEnv: false, timeout: 60_000 })
  return { ...result, files: filesIn(dest) }
}

describe('the index decides what exists, through the relay', () => {
  it('an index whose pages are 1.5 s slow, with a lagging mirror: the index\'s newest version, as plain pip', async () => {
    const index = await server({ wheels, ...slowPages, missing: ['privpkg', 'demo-pkg==6.6.6'] })
    const mirror = await server({ wheels, missing: ['privpkg', 'demo-pkg==2.0', 'demo-pkg==6.6.6'] })
    const plain = await plainPip((await server({ wheels, ...slowPages, missing: ['privpkg', 'demo-pkg==6.6.6'] })).url, ['demo-pkg'])
    expect(plain.files).toEqual(['demo_pkg-2.0-py3-none-any.whl'])
    const ours = await throughResilient({ pypi: { index: index.url, mirrors: [mirror.url] } }, ['demo-pkg'])
    expect(ours.exitCode, ours.all).toBe(0)
    expect(ours.files).toEqual(plain.files)
    expect(mirror.requests.filter(path => path.startsWith('/simple/'))).toEqual([])
    expect(ours.report?.relay?.mirrorPages).toBeUndefined()
  })

  it('one 503 on the index\'s page, with a lagging mirror: the index is asked again, as pip would, and its page wins', async () => {
    const index = await server({ wheels, ...onePage503('/simple/demo-pkg/'), missing: ['privpkg', 'demo-pkg==6.6.6'] })
    const mirror = await server({ wheels, missing: ['privpkg', 'demo-pkg==2.0', 'demo-pkg==6.6.6'] })
    const ours = await throughResilient({ pypi: { index: index.url, mirrors: [mirror.url] } }, ['demo-pkg'])
    expect(ours.exitCode, ours.all).toBe(0)
    expect(ours.files).toEqual(['demo_pkg-2.0-py3-none-any.whl'])
    expect(index.requests.filter(path => path === '/simple/demo-pkg/')).toHaveLength(2)
    expect(mirror.requests.filter(path => path.startsWith('/simple/'))).toEqual([])
  })

  it('a release the index removed, still on a mirror, with the index 1.5 s slow: never installed', async () => {
    const index = await server({ wheels, ...slowPages, missing: ['privpkg', 'demo-pkg==6.6.6'] })
    const mirror = await server({ wheels, missing: ['privpkg'] })
    const ours = await throughResilient({ pypi: { index: index.url, mirrors: [mirror.url] } }, ['demo-pkg'])
    expect(ours.exitCode, ours.all).toBe(0)
    expect(ours.files).toEqual(['demo_pkg-2.0-py3-none-any.whl'])
  })

  it('a private extra index: its name never reaches the mirror, and the mirror\'s look-alike is never installed', async () => {
    const index = await server({ wheels, ...onePage503('/simple/privpkg/'), missing: ['privpkg'] })
    const mirror = await server({ wheels })
    const company = await server({ wheels: [buildWheel('privpkg', '1.0.0')] })
    const ours = await throughResilient({ pypi: { index: index.url, mirrors: [mirror.url] } }, ['--extra-index-url', company.url, 'privpkg'])
    expect(ours.exitCode, ours.all).toBe(0)
    expect(ours.files).toEqual(['privpkg-1.0.0-py3-none-any.whl'])
    expect(mirror.requests.filter(path => /privpkg/.test(path))).toEqual([])
  })

  it('a dead index with a current mirror: its pages come from the mirror, said once, and in the report', async () => {
    const index = await server({ wheels, fault: { kind: 'blackhole' } })
    const mirror = await server({ wheels, missing: ['privpkg', 'demo-pkg==6.6.6'] })
    const started = Date.now()
    const ours = await throughResilient({ pypi: { index: index.url, mirrors: [mirror.url] } }, ['demo-pkg'])
    expect(ours.exitCode, ours.all).toBe(0)
    expect(ours.files).toEqual(['demo_pkg-2.0-py3-none-any.whl'])
    const lines = ours.stderr.split('\n').filter(line => /its copies may lag/.test(line))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(new RegExp(`1 page .*127\\.0\\.0\\.1:${mirror.port}.*127\\.0\\.0\\.1:${index.port}`))
    expect(ours.report?.relay?.mirrorPages).toEqual({ index: `127.0.0.1:${index.port}`, because: 'timeout', pages: { [`127.0.0.1:${mirror.port}`]: 1 } })
  })

  it('a local devpi on 127.0.0.1 beside the index: it never gets the relay\'s secret, and the person\'s netrc entry for 127.0.0.1 still reaches it', async () => {
    const index = await server({ wheels, missing: ['privpkg'] })
    const mirror = await server({ wheels })
    const devpi = await server({ wheels: [buildWheel('privpkg', '1.0.0')] })
    const alone = await throughResilient({ pypi: { index: index.url, mirrors: [mirror.url] } }, ['--extra-index-url', devpi.url, 'privpkg', 'demo-pkg'])
    expect(alone.exitCode, alone.all).toBe(0)
    expect(devpi.authorizations).toEqual([])
    // The same, with the person's own ~/.netrc entry for the devpi on 127.0.0.1.
    const env = isolatedEnv()
    writeFileSync(join(env.HOME!, '.netrc'), 'machine 127.0.0.1 login me password my-devpi-password\n', { mode: 0o600 })
    // The index and mirror by the name localhost, as pip would reach an index of another host: the netrc entry is the devpi's alone.
    const byName = (url: string) => url.replace('127.0.0.1', 'localhost')
    const mine = await throughResilient({ pypi: { index: byName(index.url), mirrors: [byName(mirror.url)] } }, ['--extra-index-url', devpi.url, 'privpkg', 'demo-pkg'], env)
    expect(mine.exitCode, mine.all).toBe(0)
    expect(mine.files).toEqual(['demo_pkg-6.6.6-py3-none-any.whl', 'privpkg-1.0.0-py3-none-any.whl'])
    const mineHeader = `Basic ${Buffer.from('me:my-devpi-password').toString('base64')}`
    expect(devpi.authorizations.length).toBeGreaterThan(0)
    expect(new Set(devpi.authorizations)).toEqual(new Set([mineHeader]))
    // Through the relay, on a host of its own.
    expect(Object.keys((mine.report?.relay as { sources: object }).sources)).toContain(`localhost:${index.port}`)
    expect(index.authorizations).toEqual([])
  })

  it('a CI job that restores pip\'s cache but not resilient\'s state fetches no file again', async () => {
    const index = await server({ wheels, likePypi: true })
    const env = isolatedEnv()
    const config = { pypi: { index: index.url, mirrors: [] } }
    const first = await throughResilient(config, ['demo-pkg==2.0'], env)
    expect(first.exitCode, first.all).toBe(0)
    const before = index.requests.length
    // A new machine's state: another state directory (resilient's own files all gone), pip's cache kept.
    const again = await throughResilient(config, ['demo-pkg==2.0'], { ...env, RESILIENT_STATE_DIR: mkdtempSync(join(tmpdir(), 'resilient-new-state-')) })
    expect(again.exitCode, again.all).toBe(0)
    expect(index.requests.slice(before).filter(path => path.startsWith('/files/'))).toEqual([])
  })

  it('an index named only in resilient\'s config (config or RESILIENT_PYPI_INDEX, npm.index), no mirrors beside it: no public mirror is planned', async () => {
    const cwd = projectWithConfig({ relay: true })
    const viaVariable = await runCli(['-n', 'pip', 'install', 'x'], { cwd, env: isolatedEnv({ RESILIENT_PYPI_INDEX: 'https://pypi.corp.example/simple' }) })
    expect(viaVariable.exitCode, viaVariable.all).toBe(0)
    expect(viaVariable.stderr).toMatch(/# attempt 1 of 1 on pypi\.corp\.example/)
    // In the user's own config (a project's config naming an index outside the catalog waits for `resilient config trust`).
    const env = isolatedEnv()
    mkdirSync(join(env.XDG_CONFIG_HOME!, 'resilient'), { recursive: true })
    writeFileSync(join(env.XDG_CONFIG_HOME!, 'resilient', 'config.json'), JSON.stringify({ npm: { index: 'https://npm.corp.example/' } }))
    const npm = await runCli(['-n', 'npm', 'install', 'x'], { cwd, env })
    expect(npm.stderr).toMatch(/# attempt 1 of 1 on npm\.corp\.example/)
    expect(`${viaVariable.all}${npm.all}`).not.toMatch(/tuna|aliyun|npmmirror|tencent|huawei/)
  })
})
