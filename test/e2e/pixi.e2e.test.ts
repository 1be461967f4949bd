import { existsSync } from 'node:fs'
import { parse } from 'smol-toml'
import { describe, expect, it } from 'vitest'
import { CONDA_MIRROR, dryRun, runWithFakes } from '../helpers/fake-tools.js'
import { channelPackage, channelServers } from '../support/conda-channel.js'

// pixi cannot be installed here: a fake pixi answers `--version` and replays pixi's real 403 from a public mirror
// (prefix-dev/pixi#753), reading the [mirrors] of the config file it is given.
const config = { conda: { mirrors: [CONDA_MIRROR] } }
// The fake-tool runs keep the relay off unless a test says (test/helpers/fake-tools.ts): these say.
const relayed = { ...config, relay: true }
const manifest = { 'pixi.toml': '[workspace]\nname = "w"\nchannels = ["conda-forge"]\nplatforms = ["linux-64"]\n' }
// The user's own pixi config: a mirror that blocks them, and settings a mirror attempt must keep.
const userConfig = { '.pixi/config.toml': '[mirrors]\n"https://conda.anaconda.org" = ["http://mirrors.tuna.tsinghua.edu.cn/anaconda/cloud"]\n\n[concurrency]\ndownloads = 4\n' }

describe('pixi through resilient (replayed output)', () => {
  it('recovers on another mirror through a temporary config that keeps the user config', async () => {
    const run = await runWithFakes(['pixi', 'add', 'go'], { config, healthy: CONDA_MIRROR, files: manifest, home: userConfig })
    expect(run.exitCode, run.all).toBe(0)
    expect(run.calls.filter(call => call.argv[0] === '--version')).toHaveLength(1)
    expect(run.attempts.map(call => call.argv)).toEqual([['add', 'go'], ['add', 'go']])
    const path = run.added[1]!.PIXI_CONFIG_FILE!
    expect(run.added).toEqual([{}, { PIXI_CONFIG_FILE: path }])
    expect(path).toMatch(/\/resilient-run-\d+-\w{6}\/pixi-conda-mirror\.test-[0-9a-f]{8}\.toml$/)
    const written = parse(run.attempts[1]!.files[path]!) as { mirrors: Record<string, string[]>; concurrency: unknown }
    expect(written.mirrors['https://conda.anaconda.org/']).toEqual([`${CONDA_MIRROR}/`])
    expect(written.mirrors['http://mirrors.tuna.tsinghua.edu.cn/anaconda/cloud/']).toEqual([`${CONDA_MIRROR}/`])
    expect(written.concurrency).toEqual({ downloads: 4 })
    expect(existsSync(path)).toBe(false)
    expect(run.report?.attempts[0]?.diagnosis?.category).toBe('http_auth')
  })

  it('never replaces a private channel of the workspace: a 403 there asks for credentials', async () => {
    const files = { 'pixi.toml': '[workspace]\nname = "w"\nchannels = ["https://conda.corp.example/internal"]\nplatforms = ["linux-64"]\n' }
    const run = await runWithFakes(['pixi', 'install'], { config, healthy: CONDA_MIRROR, files })
    expect(run.exitCode).toBe(1)
    expect(run.attempts).toHaveLength(1)
    expect(run.added).toEqual([{}])
    expect(run.stderr).toMatch(/credentials/)
    expect(run.all).not.toContain(CONDA_MIRROR)
  })

  it('uses no mirror with a pixi older than 0.70, which has no --config-file', async () => {
    const run = await dryRun(['--verbose', 'pixi', 'install'], { config, files: manifest, env: { FAKE_PIXI_VERSION: '0.65.1' } })
    expect(run.lines).toEqual(['pixi install'])
    expect(run.stderr).toMatch(/no mirror will be used: pixi 0\.65 reads mirrors only from its global config files/)
  })

  it('prints the planned attempts: first through the relay by a config file for the attempt, then the mirror', async () => {
    const run = await dryRun(['pixi', 'add', 'numpy'], { config: relayed, files: manifest })
    expect(run.lines).toHaveLength(2)
    expect(run.lines[0]).toMatch(/^PIXI_CONFIG_FILE=(\S+\/resilient-run-\d+-\w{6}\/pixi-relay-conda\.anaconda\.org\.toml) pixi add numpy # with \1$/)
    expect(run.stderr).toMatch(/through resilient's relay on 127\.[\d.]+:\d+, which asks for pages of conda\.anaconda\.org \(of conda-mirror\.test only once conda\.anaconda\.org fails\)/)
    // The file holds the relay's secret: only named.
    expect(run.stderr).toMatch(/pixi-relay-conda\.anaconda\.org\.toml: the relay's secret for the tool/)
    expect(run.lines[1]).toMatch(/^PIXI_CONFIG_FILE=(\S+\/resilient-run-\d+-\w{6}\/pixi-conda-mirror\.test-\S+\.toml) pixi add numpy # with \1$/)
  })

  it('points pixi at the relay by a [mirrors] entry for conda.anaconda.org in a private config file, its secret in conda\'s t/<token>/ form', async () => {
    const run = await runWithFakes(['pixi', 'add', 'go'], { config: relayed, healthy: CONDA_MIRROR, files: manifest, home: { '.pixi/config.toml': '[concurrency]\ndownloads = 4\n' } })
    expect(run.exitCode, run.all).toBe(0)
    expect(run.attempts.map(call => call.argv)).toEqual([['add', 'go'], ['add', 'go']])
    const path = run.added[0]!.PIXI_CONFIG_FILE!
    expect(run.added[0]).toEqual({ PIXI_CONFIG_FILE: path })
    expect(path).toMatch(/\/resilient-run-\d+-\w{6}\/pixi-relay-conda\.anaconda\.org\.toml$/)
    const written = parse(run.attempts[0]!.files[path]!) as { mirrors: Record<string, string[]>; concurrency: unknown }
    const [relayUrl] = written.mirrors['https://conda.anaconda.org/']!
    expect(relayUrl).toMatch(/^http:\/\/127\.[\d.]+:\d+\/t\/[^/]+\/$/)
    // A channel with a token of its own stays on conda.anaconda.org; the person's settings are kept.
    expect(written.mirrors['https://conda.anaconda.org/t/']).toEqual(['https://conda.anaconda.org/t/'])
    expect(written.concurrency).toEqual({ downloads: 4 })
    const secret = /\/t\/([^/]+)\//.exec(relayUrl!)![1]!
    expect(run.all).not.toContain(secret)
    expect(JSON.stringify(run.attempts.map(call => call.argv))).not.toContain(secret)
    expect(existsSync(path)).toBe(false)
  })

  it('keeps pixi off the relay where it would not carry what pixi does: its own [mirrors], a keyring it may read tokens from', async () => {
    const own = await runWithFakes(['-v', 'pixi', 'add', 'go'], { config: relayed, healthy: CONDA_MIRROR, files: manifest, home: userConfig })
    expect(own.stderr).toMatch(/no relay: pixi sends its own \[mirrors\] \(your pixi config\)/)
    const keyring = await dryRun(['-v', 'pixi', 'add', 'go'], { config: relayed, files: manifest, env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus' } })
    expect(keyring.stderr).toMatch(/no relay: pixi sends credentials to conda\.anaconda\.org \(the system keyring/)
    expect(keyring.lines[0]).toBe('pixi add go')
  })

  describe('with real requests through the relay (the fake pixi makes rattler\'s, test/e2e/bin/pixi)', () => {
    const DEMO = channelPackage('demo', '2.0', { size: 1_000_000 })
    const channel = channelServers({ packages: [channelPackage('demo', '1.0'), DEMO] })
    const fetching = async (fault?: Parameters<typeof channel>[0]) => {
      const [index, mirror] = [await channel(fault), await channel()]
      const run = await runWithFakes(['pixi', 'add', 'demo'], { config: { relay: true, conda: { index: index.url, mirrors: [mirror.url] } }, files: manifest, env: { FAKE_TOOL_REQUESTS: '1' } })
      return { run, index, mirror }
    }

    it('installs from the index through the relay in one attempt, asking the mirror for nothing', async () => {
      const { run, index, mirror } = await fetching()
      expect(run.exitCode, run.all).toBe(0)
      expect(run.stdout).toContain('pixi: installed demo 2.0')
      expect(run.attempts).toHaveLength(1)
      expect(index.requests).toContain('/conda-forge/linux-64/demo-2.0-h0_0.conda')
      expect(index.requests.some(path => /\.(zst|bz2)$/.test(path))).toBe(false)
      expect(mirror.requests).toEqual([])
    })

    it('wins a dead index\'s pages on the mirror, and a break at 80 % of the package, in the relay\'s one attempt', async () => {
      const dead = await fetching({ fault: ({ isFile }) => isFile ? { kind: 'ok' } : { kind: 'status', status: 503 } })
      expect(dead.run.exitCode, dead.run.all).toBe(0)
      expect(dead.run.attempts).toHaveLength(1)
      expect(dead.run.stdout).toContain('pixi: installed demo 2.0')
      expect(dead.mirror.requests).toContain('/conda-forge/linux-64/repodata.json')
      const broken = await fetching({ fault: ({ isFile }) => isFile ? { kind: 'truncate', atFraction: 0.8 } : { kind: 'ok' } })
      expect(broken.run.exitCode, broken.run.all).toBe(0)
      expect(broken.run.attempts).toHaveLength(1)
      const packageBytes = broken.index.bytesSent() + broken.mirror.bytesSent()
      expect(packageBytes).toBeLessThan(1.1 * DEMO.bytes.length + 50_000)
    })
  })
})
