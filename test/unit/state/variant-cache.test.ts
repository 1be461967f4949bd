import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { resolveVariantCached, variantCacheFile } from '../../../src/state/variant-cache.js'
import { yarn } from '../../../src/tools/yarn.js'

/** A `yarn` that says `version` and counts how often it was started. */
function fakeYarn(root: string, version: string) {
  const bin = join(root, 'bin')
  mkdirSync(bin, { recursive: true })
  const starts = join(root, 'starts')
  writeFileSync(join(bin, 'yarn'), `#!/bin/sh\necho started >> '${starts}'\necho ${version}\n`, { mode: 0o755 })
  return { path: join(bin, 'yarn'), starts: () => existsSync(starts) ? readFileSync(starts, 'utf8').split('\n').filter(Boolean).length : 0 }
}

function setup(version = '1.22.22') {
  const root = mkdtempSync(join(tmpdir(), 'resilient-variant-'))
  const home = join(root, 'home')
  const project = join(root, 'project')
  mkdirSync(home)
  mkdirSync(project)
  const env: NodeJS.ProcessEnv = { HOME: home, RESILIENT_STATE_DIR: join(root, 'state'), PATH: '/usr/bin:/bin' }
  const tool = fakeYarn(root, version)
  const resolveIn = (cwd = project, extra: NodeJS.ProcessEnv = {}) => resolveVariantCached(yarn, tool.path, { args: [], env: { ...env, ...extra }, cwd, home })
  return { root, home, project, env, tool, resolveIn }
}

describe('the yarn variant, kept between runs', () => {
  it('starts yarn once, then answers from the state directory', async () => {
    const { tool, resolveIn, env } = setup('4.9.1')
    expect((await resolveIn()).name).toBe('yarn-berry')
    expect((await resolveIn()).name).toBe('yarn-berry')
    expect(tool.starts()).toBe(1)
    // Only a hash and the adapter's name are kept.
    const kept = readFileSync(variantCacheFile(env), 'utf8')
    expect(kept).not.toContain('project')
    expect(Object.values(JSON.parse(kept))).toEqual([{ variant: 'yarn-berry', at: expect.any(String) }])
  })

  it('never keeps an answer yarn did not give: a failed start is yarn 1 for that run only, and the next run asks again', async () => {
    const { tool, resolveIn, env } = setup('4.9.1')
    const working = readFileSync(tool.path, 'utf8')
    // A yarn that fails to say its version (as a start past the timeout on a busy machine does).
    writeFileSync(tool.path, working.replace('echo 4.9.1', 'exit 1'))
    expect((await resolveIn()).name).toBe('yarn')
    expect(existsSync(variantCacheFile(env))).toBe(false)
    // Output without a version is no answer either.
    writeFileSync(tool.path, working.replace('echo 4.9.1', 'echo hello'))
    expect((await resolveIn()).name).toBe('yarn')
    expect(existsSync(variantCacheFile(env))).toBe(false)
    writeFileSync(tool.path, working)
    expect((await resolveIn()).name).toBe('yarn-berry')
    expect((await resolveIn()).name).toBe('yarn-berry')
    expect(tool.starts()).toBe(3)
  })

  it('asks again when the yarn binary changes (an upgrade), and keeps the new answer', async () => {
    const { tool, resolveIn } = setup('1.22.22')
    expect((await resolveIn()).name).toBe('yarn')
    writeFileSync(tool.path, readFileSync(tool.path, 'utf8').replace('1.22.22', '4.9.1'))
    const later = new Date(statSync(tool.path).mtimeMs + 5000)
    utimesSync(tool.path, later, later)
    expect((await resolveIn()).name).toBe('yarn-berry')
    expect(tool.starts()).toBe(2)
    expect((await resolveIn()).name).toBe('yarn-berry')
    expect(tool.starts()).toBe(2)
  })

  it('asks again where a project file can pick another yarn (yarnPath, packageManager)', async () => {
    const { tool, resolveIn, project } = setup()
    await resolveIn()
    writeFileSync(join(project, '.yarnrc.yml'), 'yarnPath: .yarn/releases/yarn-4.9.1.cjs\n')
    await resolveIn()
    writeFileSync(join(project, 'package.json'), '{"packageManager":"yarn@4.9.1"}\n')
    await resolveIn()
    expect(tool.starts()).toBe(3)
    // A sub-folder with nothing of its own has the same answer.
    mkdirSync(join(project, 'src'))
    await resolveIn(join(project, 'src'))
    expect(tool.starts()).toBe(3)
  })

  it('asks again when a YARN_ or COREPACK_ variable differs, and for a .yarnrc in the home folder', async () => {
    const { tool, resolveIn, home } = setup()
    await resolveIn()
    await resolveIn(undefined, { YARN_IGNORE_PATH: '1' })
    await resolveIn(undefined, { COREPACK_ENABLE_STRICT: '0' })
    writeFileSync(join(home, '.yarnrc'), 'yarn-path "/opt/yarn.js"\n')
    await resolveIn()
    expect(tool.starts()).toBe(4)
  })

  it('a cache that cannot be written costs a start, never the run', async () => {
    const { tool, resolveIn, root } = setup()
    writeFileSync(join(root, 'state'), 'a file where the directory should be')
    expect((await resolveIn()).name).toBe('yarn')
    expect((await resolveIn()).name).toBe('yarn')
    expect(tool.starts()).toBe(2)
  })
})
