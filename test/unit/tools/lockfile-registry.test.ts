import { chmodSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { guardLockfile, NPM_LOCKFILE, readLockedRegistries, YARN_LOCKFILE, type LockfileFormat } from '../../../src/tools/lockfile/lockfile-registry.js'
import { withLockfileRewrite } from '../../../src/tools/lockfile/lockfile-rewrite.js'

const MIRROR = 'https://registry.npmmirror.com/'
const NPMJS = 'https://registry.npmjs.org/'
const YARNPKG = 'https://registry.yarnpkg.com/'
const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../../fixtures/lockfiles/${name}`, import.meta.url)), 'utf8')

interface Scenario {
  format: LockfileFormat
  file: string
  /** The lockfile when the run started; undefined for a project without one. */
  before: string | undefined
  /** What the tool wrote during the run. */
  after: string
  mirrorUrls?: string[]
  primaryUrl?: string
  /** Where resilient runs, relative to the folder holding the lockfile. */
  cwd?: string
}

/** Guards the lockfile, lets "the tool" write `after`, restores; returns what restore said and the file's text. */
async function restoreAfter({ format, file, before, after, mirrorUrls = [MIRROR], primaryUrl = NPMJS, cwd = '.' }: Scenario) {
  const project = mkdtempSync(join(tmpdir(), 'resilient-lockfile-'))
  mkdirSync(join(project, cwd), { recursive: true })
  if (before !== undefined) writeFileSync(join(project, file), before)
  const guard = guardLockfile(format, join(project, cwd))
  writeFileSync(join(project, file), after)
  const restored = await guard.restore({ mirrorUrls, primaryUrl })
  return { restored, text: readFileSync(join(project, file), 'utf8'), project }
}

/** `text` with the registry prefix of these packages' URLs replaced, and nothing else. */
function expectedAfter(text: string, packagePaths: string[], from = MIRROR, to = NPMJS): string {
  return packagePaths.reduce((result, path) => result.replaceAll(`${from}${path}/-/`, `${to}${path}/-/`), text)
}

const integrities = (text: string) => [...text.matchAll(/integrity"?:? "?(sha\d+-[^"\s]+)/g)].map(match => match[1])

describe('npm lockfiles', () => {
  it('restores the URLs a mirror added to a lockfileVersion 1 tree, nested ones included', async () => {
    const after = fixture('v1-after.json')
    const { restored, text, project } = await restoreAfter({ format: NPM_LOCKFILE, file: 'package-lock.json', before: fixture('v1-before.json'), after })
    expect(restored).toEqual({ file: join(project, 'package-lock.json'), replaced: 2 })
    expect(text).toBe(expectedAfter(after, ['debug', 'ms']))
    expect(text).toContain('"resolved": "https://npm.corp.example/@corp/ui/-/ui-3.1.0.tgz"')
    expect(integrities(text)).toEqual(integrities(after))
  })

  it('restores both sections of lockfileVersion 2 and counts each package once', async () => {
    const after = fixture('v2-after.json')
    const { restored, text } = await restoreAfter({ format: NPM_LOCKFILE, file: 'package-lock.json', before: fixture('v2-before.json'), after })
    expect(restored?.replaced).toBe(2)
    expect(text).not.toContain(MIRROR)
    expect(text).toBe(expectedAfter(after, ['debug', 'ms']))
  })

  it('keeps a lockfileVersion 3 file indented with tabs, and mirror URLs that were committed before the run', async () => {
    const after = fixture('v3-after.json')
    const { restored, text } = await restoreAfter({ format: NPM_LOCKFILE, file: 'package-lock.json', before: fixture('v3-before.json'), after })
    expect(restored?.replaced).toBe(2)
    expect(text).toBe(expectedAfter(after, ['debug', 'ms']))
    expect(text).toContain(`"resolved": "${MIRROR}left-pad/-/left-pad-1.3.0.tgz"`)
    expect(text.endsWith('}\n')).toBe(true)
  })

  it('restores every mirror URL of a lockfile the run created', async () => {
    const after = fixture('v3-after.json')
    const { restored, text } = await restoreAfter({ format: NPM_LOCKFILE, file: 'package-lock.json', before: undefined, after })
    expect(restored?.replaced).toBe(3)
    expect(text).toBe(expectedAfter(after, ['debug', 'ms', 'left-pad']))
  })

  it('touches nothing when the run left the lockfile as it was (npm ci)', async () => {
    const lock = fixture('v3-before.json')
    const { restored, text } = await restoreAfter({ format: NPM_LOCKFILE, file: 'package-lock.json', before: lock, after: lock })
    expect(restored).toBeUndefined()
    expect(text).toBe(lock)
  })

  it('writes the configured index without its credentials', async () => {
    const after = fixture('v2-after.json')
    const { text } = await restoreAfter({ format: NPM_LOCKFILE, file: 'package-lock.json', before: fixture('v2-before.json'), after, primaryUrl: 'https://ci:s3cret@npm.example.com/registry' })
    expect(text).toBe(expectedAfter(after, ['debug', 'ms'], MIRROR, 'https://npm.example.com/registry/'))
    expect(text).not.toContain('s3cret')
  })

  it('restores only what lies under a mirror with a path, not other paths on its host', async () => {
    const tencent = 'https://mirrors.cloud.tencent.com/npm/'
    const after = fixture('v2-after.json').replaceAll(`${MIRROR}debug/`, `${tencent}debug/`).replaceAll(`${MIRROR}ms/`, 'https://mirrors.cloud.tencent.com/other/ms/')
    const { restored, text } = await restoreAfter({ format: NPM_LOCKFILE, file: 'package-lock.json', before: fixture('v2-before.json'), after, mirrorUrls: ['https://mirrors.cloud.tencent.com/npm'] })
    expect(restored?.replaced).toBe(1)
    expect(text).toBe(expectedAfter(after, ['debug'], tencent))
  })

  it('takes the longest of two mirror prefixes on one host', async () => {
    const nested = 'https://mirror.example/npm/'
    const after = fixture('v2-after.json').replaceAll(MIRROR, nested)
    const { text } = await restoreAfter({ format: NPM_LOCKFILE, file: 'package-lock.json', before: fixture('v2-before.json'), after, mirrorUrls: ['https://mirror.example/', nested] })
    expect(text).toBe(expectedAfter(after, ['debug', 'ms'], nested))
  })

  it('restores npm-shrinkwrap.json, which npm writes instead of package-lock.json', async () => {
    const project = mkdtempSync(join(tmpdir(), 'resilient-lockfile-'))
    writeFileSync(join(project, 'npm-shrinkwrap.json'), fixture('v3-before.json'))
    writeFileSync(join(project, 'package-lock.json'), fixture('v2-after.json'))
    const guard = guardLockfile(NPM_LOCKFILE, project)
    writeFileSync(join(project, 'npm-shrinkwrap.json'), fixture('v3-after.json'))
    expect(await guard.restore({ mirrorUrls: [MIRROR], primaryUrl: NPMJS })).toEqual({ file: join(project, 'npm-shrinkwrap.json'), replaced: 2 })
    expect(readFileSync(join(project, 'package-lock.json'), 'utf8')).toBe(fixture('v2-after.json'))
  })

  it('finds the lockfile at the workspace root when run in a package folder', async () => {
    const after = fixture('v3-after.json')
    const { restored, text } = await restoreAfter({ format: NPM_LOCKFILE, file: 'package-lock.json', before: fixture('v3-before.json'), after, cwd: 'packages/app' })
    expect(restored?.replaced).toBe(2)
    expect(text).toBe(expectedAfter(after, ['debug', 'ms']))
  })

  it('leaves a lockfile with merge conflict markers alone', async () => {
    const after = fixture('v2-after.json').replace('    "node_modules/debug": {', '<<<<<<< HEAD\n    "node_modules/debug": {')
    const { restored, text } = await restoreAfter({ format: NPM_LOCKFILE, file: 'package-lock.json', before: fixture('v2-before.json'), after })
    expect(restored).toBeUndefined()
    expect(text).toBe(after)
  })

  it('keeps the lockfile mode', async () => {
    const project = mkdtempSync(join(tmpdir(), 'resilient-lockfile-'))
    const file = join(project, 'package-lock.json')
    writeFileSync(file, fixture('v3-before.json'))
    const guard = guardLockfile(NPM_LOCKFILE, project)
    writeFileSync(file, fixture('v3-after.json'))
    chmodSync(file, 0o640)
    await guard.restore({ mirrorUrls: [MIRROR], primaryUrl: NPMJS })
    expect(statSync(file).mode & 0o777).toBe(0o640)
  })
})

describe('yarn.lock (yarn 1)', () => {
  it('restores the URLs a mirror added and keeps their #sha1 suffix', async () => {
    const after = fixture('yarn-after.lock')
    const { restored, text } = await restoreAfter({ format: YARN_LOCKFILE, file: 'yarn.lock', before: fixture('yarn-before.lock'), after, primaryUrl: YARNPKG })
    expect(restored?.replaced).toBe(2)
    expect(text).toBe(expectedAfter(after, ['debug', 'ms'], MIRROR, YARNPKG))
    expect(text).toContain(`resolved "${YARNPKG}debug/-/debug-4.3.4.tgz#1319f6579357f2338d3337d2cdd4914bb5dcc865"`)
    expect(integrities(text)).toEqual(integrities(after))
  })

  it('keeps Windows line endings', async () => {
    const crlf = (text: string) => text.replaceAll('\n', '\r\n')
    const after = crlf(fixture('yarn-after.lock'))
    const { restored, text } = await restoreAfter({ format: YARN_LOCKFILE, file: 'yarn.lock', before: crlf(fixture('yarn-before.lock')), after, primaryUrl: YARNPKG })
    expect(restored?.replaced).toBe(2)
    expect(text).toBe(expectedAfter(after, ['debug', 'ms'], MIRROR, YARNPKG))
  })

  it('changes resolutions, never a dependency spec that names a URL', async () => {
    const entry = (url: string) => `tool@${url}:\n  version "1.0.0"\n  resolved ${url}\n  dependencies:\n    resolved "${url}"\n`
    const url = `${MIRROR}tool/-/tool-1.0.0.tgz`
    const { text } = await restoreAfter({ format: YARN_LOCKFILE, file: 'yarn.lock', before: undefined, after: entry(url), primaryUrl: YARNPKG })
    expect(text).toBe(`tool@${url}:\n  version "1.0.0"\n  resolved ${YARNPKG}tool/-/tool-1.0.0.tgz\n  dependencies:\n    resolved "${url}"\n`)
  })

  it('leaves a berry lockfile alone', async () => {
    const berry = `__metadata:\n  version: 8\n\n"debug@npm:^4.3.4":\n  version: 4.3.4\n  resolution: "debug@npm:4.3.4"\n`
    const { restored, text } = await restoreAfter({ format: YARN_LOCKFILE, file: 'yarn.lock', before: undefined, after: `# yarn\n\n${berry}`, primaryUrl: YARNPKG })
    expect(restored).toBeUndefined()
    expect(text).toBe(`# yarn\n\n${berry}`)
  })
})

describe('a mirror attempt moves no URL to a registry other than its own', () => {
  it('gives a package the tool moved to the mirror its old URL back, not the primary registry', async () => {
    const before = fixture('yarn-before.lock')
    // yarn re-resolved ms on the mirror: its URL moved from registry.yarnpkg.com to the mirror.
    const after = before.replace(`${YARNPKG}ms/-/ms-2.1.3.tgz`, `${MIRROR}ms/-/ms-2.1.3.tgz`) + `\nleft-pad@^1.3.0:\n  version "1.3.0"\n  resolved "${MIRROR}left-pad/-/left-pad-1.3.0.tgz#abc"\n`
    const { text } = await restoreAfter({ format: YARN_LOCKFILE, file: 'yarn.lock', before, after, primaryUrl: 'https://npm.corp.example/' })
    expect(text).toContain(`resolved "${YARNPKG}ms/-/ms-2.1.3.tgz#574c8138ce1d2b5861f0b44579dbadd60c6615b2"`)
    expect(text).toContain('resolved "https://npm.corp.example/left-pad/-/left-pad-1.3.0.tgz#abc"')
    expect(text.startsWith(before)).toBe(true)
  })
})

describe('the registries a lockfile pins', () => {
  it('counts resolved URLs per registry prefix, most used first', () => {
    const project = mkdtempSync(join(tmpdir(), 'resilient-lockfile-'))
    writeFileSync(join(project, 'yarn.lock'), fixture('yarn-before.lock') + `\nx@^1.0.0:\n  resolved "https://npm.corp.example/x/-/x-1.0.0.tgz#1"\n`)
    expect(readLockedRegistries(YARN_LOCKFILE, project)).toEqual({ file: join(project, 'yarn.lock'),
      registries: [{ prefix: 'https://npm.corp.example/', count: 2 }, { prefix: YARNPKG, count: 1 }] })
    expect(readLockedRegistries(NPM_LOCKFILE, project)).toBeUndefined()
  })
})

describe('a lockfile rewritten for one attempt (yarn 1 on a mirror)', () => {
  const setup = () => {
    const project = mkdtempSync(join(tmpdir(), 'resilient-lockfile-'))
    const file = join(project, 'yarn.lock')
    // CRLF and no final newline: bytes a careless rewrite would change.
    const original = Buffer.from(fixture('yarn-before.lock').replaceAll('\n', '\r\n'), 'utf8')
    writeFileSync(file, original)
    return { file, original, rewrite: { file, from: [YARNPKG], to: MIRROR } }
  }

  it('points the pinned registry at the mirror during the attempt and puts every byte back after it', async () => {
    const { file, original, rewrite } = setup()
    const during = await withLockfileRewrite(rewrite, YARN_LOCKFILE, async () => readFileSync(file, 'utf8'))
    expect(during).toContain(`resolved "${MIRROR}ms/-/ms-2.1.3.tgz#`)
    expect(during).toContain('resolved "https://npm.corp.example/@corp/ui/')
    expect(readFileSync(file).equals(original)).toBe(true)
  })

  it('moves only URLs of that very registry, never a private one under another path of its host', async () => {
    const project = mkdtempSync(join(tmpdir(), 'resilient-lockfile-'))
    const file = join(project, 'yarn.lock')
    writeFileSync(file, ['a@^1.0.0:', '  version "1.0.0"', '  resolved "https://corp.test/a/-/a-1.0.0.tgz#1"', '',
      '"@corp/secret@^2.0.0":', '  version "2.0.0"', '  resolved "https://corp.test/private/@corp/secret/-/secret-2.0.0.tgz#2"', ''].join('\n'))
    const during = await withLockfileRewrite({ file, from: ['https://corp.test/'], to: MIRROR }, YARN_LOCKFILE, async () => readFileSync(file, 'utf8'))
    expect(during).toContain(`resolved "${MIRROR}a/-/a-1.0.0.tgz#1"`)
    expect(during).toContain('resolved "https://corp.test/private/@corp/secret/-/secret-2.0.0.tgz#2"')
  })

  it('puts it back when the attempt throws or is interrupted', async () => {
    const { file, original, rewrite } = setup()
    await expect(withLockfileRewrite(rewrite, YARN_LOCKFILE, async () => { throw new Error('interrupted') })).rejects.toThrow('interrupted')
    expect(readFileSync(file).equals(original)).toBe(true)
  })

  it('keeps what the tool added, with the moved URLs back on their registry', async () => {
    const { file, rewrite } = setup()
    const added = `\r\nleft-pad@^1.3.0:\r\n  version "1.3.0"\r\n  resolved "${MIRROR}left-pad/-/left-pad-1.3.0.tgz#abc"\r\n`
    await withLockfileRewrite(rewrite, YARN_LOCKFILE, async () => writeFileSync(file, readFileSync(file, 'utf8') + added))
    const text = readFileSync(file, 'utf8')
    expect(text).toContain(`resolved "${YARNPKG}ms/-/ms-2.1.3.tgz#`)
    expect(text.endsWith(added)).toBe(true)
  })
})
