import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../../src/config/load.js'
import { planOffline } from '../../../src/plan/offline.js'
import { TOOLS } from '../../../src/tools/index.js'

function project(config: unknown) {
  const home = mkdtempSync(join(tmpdir(), 'resilient-offline-'))
  const cwd = join(home, 'repo')
  mkdirSync(join(cwd, '.git'), { recursive: true })
  writeFileSync(join(cwd, '.resilientrc.json'), JSON.stringify(config))
  return { cwd, env: { HOME: home, XDG_CONFIG_HOME: join(home, '.config') } as NodeJS.ProcessEnv }
}

describe('planOffline', () => {
  it('sends pip to the wheelhouse only, resolving a relative path against the config file', async () => {
    const { cwd, env } = project({ pypi: { wheelhouse: 'wheels' } })
    mkdirSync(join(cwd, 'wheels'))
    const mode = planOffline(TOOLS.pip, await loadConfig({ cwd, env }), join(cwd, 'sub'), env)
    expect(mode.args).toEqual(['--no-index', '--find-links', join(cwd, 'wheels')])
    expect(mode.where).toBe(`the wheelhouse ${join(cwd, 'wheels')}`)
  })

  it('says where it looked when no wheelhouse is configured', async () => {
    const { cwd, env } = project({ maxAttempts: 2 })
    const loaded = await loadConfig({ cwd, env })
    expect(() => planOffline(TOOLS.pip, loaded, cwd, env)).toThrow(/none is configured \(looked for "pypi\.wheelhouse" in .*\.resilientrc\.json, RESILIENT_PYPI_WHEELHOUSE; user config .*config\.json\)/)
  })

  it('names a wheelhouse that does not exist, and where it was set', async () => {
    const { cwd, env } = project({ pypi: { wheelhouse: '/nonexistent/wheels' } })
    const loaded = await loadConfig({ cwd, env })
    expect(() => planOffline(TOOLS.pip, loaded, cwd, env)).toThrow(/the wheelhouse \/nonexistent\/wheels \(pypi\.wheelhouse, set in .*\.resilientrc\.json\) is not a directory/)
  })

  it('uses the cache of the other ecosystems', async () => {
    const { cwd, env } = project({})
    const loaded = await loadConfig({ cwd, env })
    expect(planOffline(TOOLS.npm, loaded, cwd, env)).toMatchObject({ args: ['--offline'], where: 'the npm cache' })
    expect(planOffline(TOOLS.go, loaded, cwd, env)).toMatchObject({ args: [], env: { GOPROXY: 'off' } })
  })

  it('uses the spelling of each tool, and refuses a tool that has none instead of giving it pip\'s flags', async () => {
    const { cwd, env } = project({ pypi: { wheelhouse: 'wheels' } })
    mkdirSync(join(cwd, 'wheels'))
    const loaded = await loadConfig({ cwd, env })
    expect(planOffline(TOOLS.uv, loaded, cwd, env).args).toEqual(['--no-index', '--find-links', join(cwd, 'wheels')])
    expect(planOffline(TOOLS['yarn-berry'], loaded, cwd, env)).toMatchObject({ args: [], env: { YARN_ENABLE_OFFLINE_MODE: '1' } })
    expect(planOffline(TOOLS.cargo, loaded, cwd, env).args).toEqual(['--offline'])
    for (const tool of ['poetry', 'pdm', 'pipx'] as const) {
      expect(() => planOffline(TOOLS[tool], loaded, cwd, env)).toThrow(new RegExp(`${tool} has no flag or setting that makes it install without network`))
    }
  })
})
