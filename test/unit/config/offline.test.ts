import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../../src/config/load.js'
import { planOffline } from '../../../src/config/offline.js'
import { unknownProjectHosts } from '../../../src/config/project-hosts.js'

function project(config: unknown) {
  const home = mkdtempSync(join(tmpdir(), 'resilient-offline-'))
  const cwd = join(home, 'repo')
  mkdirSync(join(cwd, '.git'), { recursive: true })
  writeFileSync(join(cwd, '.mirrorrc.json'), JSON.stringify(config))
  return { cwd, env: { HOME: home, XDG_CONFIG_HOME: join(home, '.config') } as NodeJS.ProcessEnv }
}

describe('planOffline', () => {
  it('sends pip to the wheelhouse only, resolving a relative path against the config file', async () => {
    const { cwd, env } = project({ pypi: { wheelhouse: 'wheels' } })
    mkdirSync(join(cwd, 'wheels'))
    const mode = planOffline('pypi', await loadConfig({ cwd, env }), join(cwd, 'sub'), env)
    expect(mode.args).toEqual(['--no-index', '--find-links', join(cwd, 'wheels')])
    expect(mode.where).toBe(`the wheelhouse ${join(cwd, 'wheels')}`)
  })

  it('says where it looked when no wheelhouse is configured', async () => {
    const { cwd, env } = project({ maxAttempts: 2 })
    const loaded = await loadConfig({ cwd, env })
    expect(() => planOffline('pypi', loaded, cwd, env)).toThrow(/none is configured \(looked for "pypi\.wheelhouse" in .*\.mirrorrc\.json, RESILIENT_PYPI_WHEELHOUSE; user config .*config\.json\)/)
  })

  it('names a wheelhouse that does not exist, and where it was set', async () => {
    const { cwd, env } = project({ pypi: { wheelhouse: '/nonexistent/wheels' } })
    const loaded = await loadConfig({ cwd, env })
    expect(() => planOffline('pypi', loaded, cwd, env)).toThrow(/the wheelhouse \/nonexistent\/wheels \(pypi\.wheelhouse, set in .*\.mirrorrc\.json\) is not a directory/)
  })

  it('uses the cache of the other ecosystems', async () => {
    const { cwd, env } = project({})
    const loaded = await loadConfig({ cwd, env })
    expect(planOffline('npm', loaded, cwd, env)).toMatchObject({ args: ['--offline'], where: 'the npm cache' })
    expect(planOffline('go', loaded, cwd, env)).toMatchObject({ args: [], env: { GOPROXY: 'off' } })
  })
})

describe('unknownProjectHosts', () => {
  it('lists hosts outside the catalog that a project config sends installs to, not loopback or catalog ones', async () => {
    const { cwd, env } = project({ pypi: { index: 'https://pypi.evil.example/simple', mirrors: ['tuna', 'https://mirrors.aliyun.com/pypi/simple', 'http://127.0.0.1:3141/root/pypi'], custom: { x: 'https://other.example/simple' } } })
    expect(unknownProjectHosts(await loadConfig({ cwd, env }), 'pypi')).toEqual(['pypi.evil.example', 'other.example'])
  })

  it('ignores the user config: what you wrote yourself is not announced', async () => {
    const { cwd, env } = project({})
    mkdirSync(join(env.XDG_CONFIG_HOME!, 'resilient'), { recursive: true })
    writeFileSync(join(env.XDG_CONFIG_HOME!, 'resilient', 'config.json'), JSON.stringify({ pypi: { index: 'https://pypi.corp.example/simple' } }))
    expect(unknownProjectHosts(await loadConfig({ cwd, env }), 'pypi')).toEqual([])
  })
})
