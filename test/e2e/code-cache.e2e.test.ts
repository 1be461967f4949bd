import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli } from '../helpers/run-cli.js'
import { asSecondUser, secondUser } from '../helpers/second-user.js'

// The compiled code of resilient's own files, kept between runs (src/cli/code-cache.ts). On Node ≥ 22.1 Node's own
// compile cache does this, elsewhere resilient: these tests check the latter, and skip where Node does it.
const nodeKeepsItself = typeof ((await import('node:module')).default as { enableCompileCache?: unknown }).enableCompileCache === 'function'
const folderOf = (env: Record<string, string>) => join(env.NODE_COMPILE_CACHE ?? join(env.XDG_CACHE_HOME!, 'resilient', 'v8-code-cache'), `${process.version}-${process.arch}`)
/** A user's environment: the cache in its default place (the tests' own environment shares one folder). */
function userEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env = isolatedEnv()
  delete env.NODE_COMPILE_CACHE
  return { ...env, ...extra }
}
const entries = (folder: string) => (existsSync(folder) ? readdirSync(folder).filter(name => name.endsWith('.bin')).sort() : [])
const DRY_RUN = ['--dry-run', 'pip', 'install', 'x']

describe.skipIf(nodeKeepsItself)('the code cache', () => {
  it('is written by the first run, private to the user, named by each file\'s text, and read by the next', async () => {
    const env = userEnv()
    const first = await runCli(DRY_RUN, { env })
    expect(first.exitCode, first.all).toBe(0)
    const folder = folderOf(env)
    const written = entries(folder)
    expect(written.length).toBeGreaterThanOrEqual(3)
    for (const name of written) {
      expect(name).toMatch(/^[0-9a-f]{40}\.bin$/)
      expect(statSync(join(folder, name)).mode & 0o777).toBe(0o600)
    }
    for (const dir of [folder, join(folder, '..')]) expect(statSync(dir).mode & 0o777).toBe(0o700)
    const before = new Map(written.map(name => [name, statSync(join(folder, name)).mtimeMs]))
    const second = await runCli(DRY_RUN, { env })
    // The same plan, whose relay attempt names a credential file in each run's own private directory.
    const runDir = (text: string) => text.replace(/resilient-run-\d+-[A-Za-z0-9]+/g, 'resilient-run-<pid>')
    expect(runDir(second.stdout)).toBe(runDir(first.stdout))
    // Accepted by V8: nothing had to be compiled and saved again.
    expect(new Map(entries(folder).map(name => [name, statSync(join(folder, name)).mtimeMs]))).toEqual(before)
  })

  it('an entry V8 rejects (damaged, or from another build of V8) is compiled afresh and replaced', async () => {
    const env = userEnv()
    await runCli(DRY_RUN, { env })
    const folder = folderOf(env)
    for (const name of entries(folder)) writeFileSync(join(folder, name), 'not V8 code')
    const again = await runCli(DRY_RUN, { env })
    expect(again.exitCode, again.all).toBe(0)
    for (const name of entries(folder)) expect(statSync(join(folder, name)).size).toBeGreaterThan(100)
  })

  it('a cache folder others could write to is narrowed to the user alone before use', async () => {
    const env = userEnv()
    const folder = folderOf(env)
    mkdirSync(folder, { recursive: true })
    chmodSync(folder, 0o777)
    expect((await runCli(DRY_RUN, { env })).exitCode).toBe(0)
    expect(statSync(folder).mode & 0o777).toBe(0o700)
    expect(entries(folder).length).toBeGreaterThan(0)
  })

  it('a cache folder of another user is neither read nor written', async () => {
    const other = secondUser()
    if (!other) return
    const env = userEnv()
    const folder = folderOf(env)
    mkdirSync(join(folder, '..'), { recursive: true })
    chmodSync(env.HOME!, 0o755)
    for (const dir of [join(env.HOME!, '.cache'), join(env.HOME!, '.cache/resilient'), join(folder, '..')]) chmodSync(dir, 0o777)
    expect(asSecondUser(`mkdir -m 755 '${folder}'`).status).toBe(0)
    const run = await runCli(DRY_RUN, { env })
    expect(run.exitCode, run.all).toBe(0)
    expect(entries(folder)).toEqual([])
  })

  it('NODE_COMPILE_CACHE names the folder, as it does for Node\'s own', async () => {
    const env = userEnv({ NODE_COMPILE_CACHE: join(isolatedEnv().HOME!, 'compiled') })
    expect((await runCli(DRY_RUN, { env })).exitCode).toBe(0)
    expect(entries(folderOf(env)).length).toBeGreaterThan(0)
    expect(existsSync(join(env.XDG_CACHE_HOME!, 'resilient', 'v8-code-cache'))).toBe(false)
  })

  it('NODE_DISABLE_COMPILE_CACHE turns it off, as it does Node\'s own', async () => {
    const env = userEnv({ NODE_DISABLE_COMPILE_CACHE: '1' })
    expect((await runCli(DRY_RUN, { env })).exitCode).toBe(0)
    expect(existsSync(join(env.XDG_CACHE_HOME!, 'resilient', 'v8-code-cache'))).toBe(false)
  })
})

describe('the command\'s files', () => {
  // Node reads a file holding one byte outside ASCII as a two-byte string: a slower read, hash and parse at every start
  // (rollup.config.mjs, asciiOnly).
  it('are ASCII, every other character written as an escape', () => {
    const dist = new URL('../../dist/', import.meta.url)
    const outside = readdirSync(dist).filter(name => name.endsWith('.cjs')).filter(name => /[^\x00-\x7f]/.test(readFileSync(new URL(name, dist), 'latin1')))
    expect(outside).toEqual([])
  })
})
