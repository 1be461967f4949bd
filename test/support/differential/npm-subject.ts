import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { buildTarball, startNpmRegistry, type BuiltTarball } from '../npm-registry.js'
import { frontOnLocalhost } from '../localhost-front.js'
import { pickVersion, type Subject } from './subject.js'

/** Deterministic incompressible text: a tarball that gzip cannot shrink to nothing. */
function noise(bytes: number): string {
  let state = 0x2545f491
  let text = ''
  while (text.length < bytes) {
    state ^= state << 13; state ^= state >>> 17; state ^= state << 5
    text += (state >>> 0).toString(36)
  }
  return text.slice(0, bytes)
}

const LOOK_ALIKE_MARKER = 'LOOK-ALIKE'
const NPM_NAMES = { public: 'left-pad-x', private: '@corp/secret-lib', pinned: 'resilient-pinned-fixture-x' } as const
const NPM_VERSIONS = ['1.0.0', '2.0.0'] as const
let tarballs: { public: [BuiltTarball, BuiltTarball]; pinned: BuiltTarball; private: BuiltTarball; lookAlike: BuiltTarball } | undefined
const npmPackages = () => (tarballs ??= {
  public: [buildTarball({ name: NPM_NAMES.public, version: '1.0.0', files: { 'data.txt': noise(120_000) } }), buildTarball({ name: NPM_NAMES.public, version: '2.0.0', files: { 'data.txt': noise(120_000) } })],
  // Not a name on registry.npmjs.org (checked 2026-12): a run that reached it instead of the index fails.
  pinned: buildTarball({ name: NPM_NAMES.pinned, version: '1.0.0' }),
  private: buildTarball({ name: NPM_NAMES.private, version: '1.0.0' }),
  lookAlike: buildTarball({ name: NPM_NAMES.private, version: '9.9.9', files: { [LOOK_ALIKE_MARKER]: 'not the company\'s package\n' } }),
})

/** A project folder with a package.json, as npm, pnpm and yarn install into. */
function nodeProject(workdir: string, dependencies: Record<string, string> = {}): void {
  mkdirSync(workdir, { recursive: true })
  writeFileSync(join(workdir, 'package.json'), JSON.stringify({ name: 'differential', version: '1.0.0', private: true, dependencies }))
}

/** The pinned package's package-lock.json as npm writes it for registry.npmjs.org: its `resolved` URL names that host. */
function pinnedLockfile(workdir: string): void {
  const { spec, filename, integrity } = npmPackages().pinned
  nodeProject(workdir, { [spec.name]: `^${spec.version}` })
  writeFileSync(join(workdir, 'package-lock.json'), JSON.stringify({
    name: 'differential', version: '1.0.0', lockfileVersion: 3, requires: true,
    packages: {
      '': { name: 'differential', version: '1.0.0', dependencies: { [spec.name]: `^${spec.version}` } },
      [`node_modules/${spec.name}`]: { version: spec.version, resolved: `https://registry.npmjs.org/${spec.name}/-/${filename}`, integrity },
    },
  }, null, 2))
}

type NpmTool = 'npm' | 'pnpm' | 'yarn' | 'berry' | 'bun'
interface NpmFamilyOptions {
  add: (registry: string, spec: string) => string[]
  /** Installing from the lockfile. */
  ci?: (registry: string) => string[]
  trust?: Subject['trust']
  /** Subject.https. */
  https?: boolean
  ownTimeout: readonly string[]
  shortRetryWaits?: Subject['shortRetryWaits']
  /** Variables of each run (Subject.env): the index, for a tool that has no flag for it. */
  env?: Subject['env']
  /** Where the person names a scope's registry. */
  scope: 'environment' | 'npmrc' | 'yarnrc'
  notWon?: Subject['notWon']
}

/**
 * A scope's registry as the person names it: npm's in the environment; pnpm's, yarn 1's and bun's in the project's
 * .npmrc; berry's under npmScopes in its .yarnrc.yml, its host (plain http) the one it may ask over http.
 */
function scopeRegistry(scope: NpmFamilyOptions['scope'], url: string): ReturnType<NonNullable<Subject['privateSource']>> {
  if (scope === 'environment') return { env: { 'npm_config_@corp:registry': url } }
  if (scope === 'npmrc') return { files: { '.npmrc': `@corp:registry=${url}\n` } }
  return { files: { '.yarnrc.yml': `npmScopes:\n  corp:\n    npmRegistryServer: "${url.replace(/\/$/, '')}"\n` }, env: { YARN_UNSAFE_HTTP_WHITELIST: new URL(url).hostname } }
}
/** npm, pnpm or yarn 1, installing into a project of their own. */
export const npmFamily = (tool: NpmTool, options: NpmFamilyOptions): Subject => ({
  tool,
  ecosystem: 'npm',
  page: `/${NPM_NAMES.public}`,
  privateName: NPM_NAMES.private,
  get fileBytes() { return npmPackages().public[0].bytes.length },
  isFile: path => path.includes('/-/'),
  start: async ({ role, fault, lacksNewest, cacheable }) => {
    const all = npmPackages()
    if (role === 'private') {
      // On another host name than the index (localhost, not 127.0.0.1), as a company registry is.
      const registry = await startNpmRegistry({ packages: [all.private] })
      const front = await frontOnLocalhost(registry)
      return { url: front.url, port: registry.port, requests: registry.requests, bytesSent: registry.bytesSent, close: async () => { await front.close(); await registry.close() } }
    }
    const packages = [...all.public, all.pinned, ...role === 'mirror' ? [all.lookAlike] : []]
    return startNpmRegistry({ packages, fault, missing: lacksNewest ? [`${NPM_NAMES.public}@2.0.0`] : [], likeNpmjs: cacheable })
  },
  command: (registry, workdir, { want, extra }) => {
    if (want.package === 'pinned') {
      if (!options.ci) throw new Error(`${tool}: no lockfile case`)
      pinnedLockfile(workdir)
      return [...options.ci(registry), ...extra]
    }
    nodeProject(workdir)
    const spec = want.package === 'private' ? NPM_NAMES.private : want.version === 'any' ? NPM_NAMES.public : `${NPM_NAMES.public}@${pickVersion(want, 'oldest', NPM_VERSIONS)}`
    return [...options.add(registry, spec), ...extra]
  },
  // The version in node_modules/<name>/package.json; the look-alike known by its marker file.
  installed: (workdir, want) => {
    const dir = join(workdir, 'node_modules', NPM_NAMES[want.package])
    if (!existsSync(join(dir, 'package.json'))) return []
    const { name, version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; version: string }
    return [`${name}@${version}${existsSync(join(dir, LOOK_ALIKE_MARKER)) ? ' (look-alike)' : ''}`]
  },
  expected: (want, version) => [want.package === 'public' ? `${NPM_NAMES.public}@${pickVersion(want, version, NPM_VERSIONS)}` : `${NPM_NAMES[want.package]}@1.0.0`],
  // npm reads a scope's registry from the environment (common in CI); pnpm and yarn 1 do not (measured): theirs is
  // the project's .npmrc.
  privateSource: url => scopeRegistry(options.scope, url),
  ...options.env && { env: options.env },
  ...options.trust && { trust: options.trust },
  ...options.https && { https: true },
  ownTimeout: options.ownTimeout,
  ...options.shortRetryWaits && { shortRetryWaits: options.shortRetryWaits },
  readTimeout: [],
  ...options.notWon && { notWon: options.notWon },
})
