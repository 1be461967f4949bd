import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterEach, describe, expect, it } from 'vitest'
import type { FaultChoice } from '../../src/demo/fault-server.js'
import { buildTarball, startNpmRegistry, type NpmRegistry } from '../support/npm-registry.js'
import { envWithTool, type NpmFamilyTool } from './npm-registries.js'
import { projectWithConfig } from './e2e-setup.js'
import { runWithReport } from './run-cli.js'

/**
 * The relay's cases for a tool of the npm family (pnpm, bun, yarn), run with the real tool through the built CLI
 * against local registries with faults: what it records is the plain tool's, and a failing index is survived
 * within the one attempt through the relay.
 */
export interface RelayedTool {
  /** The name in test titles, and envWithTool's. */
  tool: Exclude<NpmFamilyTool, 'npm'>
  /** The command as typed (`['pnpm', 'install']`), with options that keep it from waiting on its own retries. */
  install: string[]
  /** The same command run plainly against `registry`: argv and extra environment. */
  plain(registry: string): { argv: string[]; env: Record<string, string> }
  lockfile: string
  /**
   * Where the tool fetches tarballs through the relay: `relay` (pnpm: every tarball, resumed and failed over), or
   * `index` (bun, yarn 1: the packument's URL on the index itself, which they record; the file cases do not apply).
   */
  files: 'relay' | 'index'
  /** The person's own token for the index, as the tool reads it: files written into the project, variables. */
  token(index: string): { files?: Record<string, string>; env?: Record<string, string> }
  /** Variables the tool needs in tests (yarn berry's linker and telemetry). */
  env?: Record<string, string>
  /**
   * Only the cases that tell one major of a tool from another, for a further major of a tool whose every case runs
   * with its devDependency's (pnpm 11 and 12 beside pnpm 10): the lockfile fresh and over an existing one, one 503,
   * a token of the person's own.
   */
  essential?: boolean
  /** The variable naming the person's own user npmrc (pnpm 11+: pnpm_config_userconfig), whose settings still apply. */
  userNpmrcVariable?: string
}

const NOISE = (seed: number) => Array.from({ length: 60_000 }, (_, i) => ((i * 7919 + seed) % 65_521).toString(36)).join('')
export const FAMILY_PACKAGES = [
  buildTarball({ name: 'left-pad-x', version: '1.0.0' }),
  buildTarball({ name: 'big-x', version: '1.0.0', files: { 'data.txt': NOISE(1) } }),
  buildTarball({ name: '@acme/util', version: '2.0.0', dependencies: { 'left-pad-x': '^1.0.0', 'big-x': '^1.0.0' } }),
]
const BIG = FAMILY_PACKAGES[1]!

interface Source { requests: number; served: number; bytes: number; resumedBytes: number }
const sourceOf = (report: { relay?: { sources: Record<string, Source> } }, registry: NpmRegistry) =>
  Object.entries(report.relay?.sources ?? {}).find(([id]) => id.endsWith(`:${registry.port}`))?.[1]

export function describeRelayedTool(spec: RelayedTool): void {
  const registries: NpmRegistry[] = []
  afterEach(async () => {
    await Promise.all(registries.splice(0).map(registry => registry.close()))
  })
  const registry = async (fault?: FaultChoice, packages = FAMILY_PACKAGES) => {
    const started = await startNpmRegistry({ packages, fault })
    registries.push(started)
    return started
  }
  const project = (index: NpmRegistry, mirror: NpmRegistry) => {
    const cwd = projectWithConfig({ relay: true, npm: { index: index.url, mirrors: [mirror.url] } })
    writeFileSync(join(cwd, 'package.json'), JSON.stringify({ name: 'p', version: '1.0.0', private: true, dependencies: { '@acme/util': '^2.0.0', 'big-x': '^1.0.0', 'left-pad-x': '^1.0.0' } }))
    return cwd
  }
  const env = () => envWithTool(spec.tool, spec.env)
  const throughResilient = async (cwd: string, args: string[] = [], extra: Record<string, string> = {}) => {
    const result = await runWithReport([...args, ...spec.install], { cwd, env: { ...env(), ...extra }, timeout: 150_000 })
    const report = existsSync(join(result.home, 'report.json')) ? JSON.parse(readFileSync(join(result.home, 'report.json'), 'utf8')) : {}
    return { ...result, report }
  }
  const plainLockfile = async (index: NpmRegistry, mirror: NpmRegistry) => {
    const cwd = project(index, mirror)
    const { argv, env: extra } = spec.plain(index.url)
    const result = await execa(argv[0]!, argv.slice(1), { cwd, env: { ...env(), ...extra }, extendEnv: false, reject: false, all: true, timeout: 120_000 })
    expect(result.exitCode, result.all).toBe(0)
    return readFileSync(join(cwd, spec.lockfile), 'utf8')
  }
  const installedBig = (cwd: string) => readFileSync(join(cwd, 'node_modules', 'big-x', 'data.txt'), 'utf8') === NOISE(1)

  describe(`${spec.tool} through the relay (real ${spec.tool}, built CLI)`, () => {
    const viaRelay = spec.files === 'relay'
    it(`writes the plain tool's lockfile byte for byte, fresh and over an existing one${viaRelay ? ', while every tarball came from the mirror' : ''}`, async () => {
      const index = await registry()
      const mirror = await registry()
      const plain = await plainLockfile(index, mirror)
      if (viaRelay) index.setFault(({ isFile }) => isFile ? { kind: 'reset' } : { kind: 'ok' })
      const fresh = project(index, mirror)
      const first = await throughResilient(fresh)
      expect(first.exitCode, first.all).toBe(0)
      expect(first.attempts, first.all).toHaveLength(1)
      expect(first.report.relay, first.all).toBeDefined()
      expect(readFileSync(join(fresh, spec.lockfile), 'utf8')).toBe(plain)
      expect(installedBig(fresh)).toBe(true)
      expect(mirror.requests.filter(path => path.endsWith('.tgz'))).toHaveLength(viaRelay ? 3 : 0)
      const locked = project(index, mirror)
      writeFileSync(join(locked, spec.lockfile), plain)
      const again = await throughResilient(locked)
      expect(again.exitCode, again.all).toBe(0)
      expect(again.attempts, again.all).toHaveLength(1)
      expect(readFileSync(join(locked, spec.lockfile), 'utf8')).toBe(plain)
      expect(mirror.requests.filter(path => path.endsWith('.tgz'))).toHaveLength(viaRelay ? 6 : 0)
    })

    const all = !spec.essential
    // Each of these is survived within the one attempt through the relay: no restart, the tool's own retries unused.
    it.each<[string, FaultChoice]>([
      ['one 503 on each of the index\'s pages: the mirror\'s page', ({ isFile, count }) => !isFile && count === 1 ? { kind: 'status', status: 503 } : { kind: 'ok' }],
      ...viaRelay && all ? [['a dead index (connections never answered): pages and files from the mirror', { kind: 'blackhole' }] as [string, FaultChoice]] : [],
      ...all ? [['a 429 with Retry-After on each of the index\'s pages, waited out', ({ isFile, count }) => !isFile && count === 1 ? { kind: 'status', status: 429, retryAfter: 1 } : { kind: 'ok' }] as [string, FaultChoice]] : [],
    ])('%s, within one attempt', async (_title, fault) => {
      const index = await registry(fault)
      const mirror = await registry()
      const cwd = project(index, mirror)
      const result = await throughResilient(cwd)
      expect(result.exitCode, result.all).toBe(0)
      expect(result.attempts, result.all).toHaveLength(1)
      expect(result.report.relay).toBeDefined()
      expect(installedBig(cwd)).toBe(true)
      // The wait is said, once: a person sees why nothing moves for a second.
      if (_title.includes('429')) expect(result.all.match(/is rate-limiting \(429\) and asked to wait 1 s: waiting it out/g), result.all).toHaveLength(1)
    })

    // A tool that fetches the index's URL itself (files: 'index') breaks on the index as without the relay.
    if (viaRelay && all) {
      it('a tarball breaking at 80 % on the index is resumed from the mirror: at most 1.1 times its bytes in all', async () => {
        const index = await registry(({ isFile, path }) => isFile && path.includes('big-x') ? { kind: 'truncate', atFraction: 0.8 } : { kind: 'ok' })
        const mirror = await registry()
        const cwd = project(index, mirror)
        const result = await throughResilient(cwd)
        expect(result.exitCode, result.all).toBe(0)
        expect(result.attempts, result.all).toHaveLength(1)
        expect(installedBig(cwd)).toBe(true)
        const resumed = sourceOf(result.report, mirror)!.resumedBytes
        expect(resumed).toBeGreaterThan(0)
        expect(resumed).toBeLessThanOrEqual(BIG.bytes.length * 0.3)
        expect(index.bytesSent() + mirror.bytesSent()).toBeLessThanOrEqual(1.1 * (BIG.bytes.length) + 20_000)
      })
    }

    it('a token of the person\'s own for the index keeps the relay away: the tool sends it to the index itself', async () => {
      const index = await registry()
      const mirror = await registry()
      const cwd = project(index, mirror)
      const token = spec.token(index.url)
      for (const [name, content] of Object.entries(token.files ?? {})) writeFileSync(join(cwd, name), content)
      const result = await throughResilient(cwd, ['-v'], token.env)
      expect(result.exitCode, result.all).toBe(0)
      expect(result.all).toMatch(/no relay: .*sends credentials to 127\.0\.0\.1/)
      expect(result.report.relay).toBeUndefined()
      expect(index.authorizations.filter(Boolean).length).toBeGreaterThan(0)
    })

    if (spec.userNpmrcVariable) {
      const variable = spec.userNpmrcVariable
      // The tool reads that file before npm_config_userconfig: the relay's secret must reach it there, or every
      // request to the relay is refused (401).
      it(`a user npmrc of the person's own named by ${variable}: still through the relay, in one attempt`, async () => {
        const index = await registry(({ isFile, count }) => !isFile && count === 1 ? { kind: 'status', status: 503 } : { kind: 'ok' })
        const mirror = await registry()
        const cwd = project(index, mirror)
        const own = join(cwd, 'work-npmrc')
        writeFileSync(own, `registry=${index.url}\n`)
        const result = await throughResilient(cwd, [], { [variable]: own })
        expect(result.exitCode, result.all).toBe(0)
        expect(result.attempts, result.all).toHaveLength(1)
        expect(result.report.relay, result.all).toBeDefined()
        expect(installedBig(cwd)).toBe(true)
      })
    }

    if (all) it('--dry-run shows the attempt through the relay and the sources behind it, never the secret', async () => {
      const index = await registry()
      const mirror = await registry()
      const cwd = project(index, mirror)
      const result = await throughResilient(cwd, ['--dry-run'])
      expect(result.exitCode, result.all).toBe(0)
      expect(result.all).toMatch(new RegExp(`attempt 1 of \\d+ .*through resilient's relay on 127\\.[\\d.]+:\\d+, which asks for pages of 127\\.0\\.0\\.1:${index.port} \\(of 127\\.0\\.0\\.1:${mirror.port} only once`))
      expect(result.all).not.toMatch(/NPM_CONFIG_TOKEN=(?!\*)|YARN_NPM_AUTH_IDENT=resilient:(?!\*)/)
      expect(index.requests).toEqual([])
    })

    if (all) it('a slow index with a lagging mirror: the index\'s versions win, not the mirror\'s', async () => {
      const newer = buildTarball({ name: 'left-pad-x', version: '1.1.0' })
      const index = await registry(({ isFile }) => isFile ? { kind: 'ok' } : { kind: 'delay', ms: 1500 }, [...FAMILY_PACKAGES, newer])
      const mirror = await registry()
      const cwd = project(index, mirror)
      const result = await throughResilient(cwd)
      expect(result.exitCode, result.all).toBe(0)
      expect(JSON.parse(readFileSync(join(cwd, 'node_modules', 'left-pad-x', 'package.json'), 'utf8')).version).toBe('1.1.0')
    })
  })
}
