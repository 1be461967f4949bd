import { findUserKnobs } from '../../../src/tools/knobs.js'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { configSchema } from '../../../src/config/schema.js'
import { planSources } from '../../helpers/plan-helpers.js'
import { cargo } from '../../../src/tools/cargo.js'
import { contextIn, folderWith, rewrite } from '../../helpers/tool-cases.js'

const M = 'https://mirror.test/crates.io-index/'
const REPLACE = `--config 'source.crates-io.replace-with="resilient-mirror"' --config 'source.resilient-mirror.registry="sparse+${M}"'`

describe('cargo: rewriting', () => {
  it('replaces crates.io with the mirror through --config', () => expect(rewrite(cargo, 'cargo fetch', M)).toBe(`cargo ${REPLACE} fetch`))
  it('adds the trailing slash sparse registries need', () => expect(rewrite(cargo, 'cargo build', M.slice(0, -1))).toBe(`cargo ${REPLACE} build`))
  it('keeps +toolchain first', () => expect(rewrite(cargo, 'cargo +nightly build --release', M)).toBe(`cargo +nightly ${REPLACE} build --release`))
  it('never touches its timeout or retries', () => expect(rewrite(cargo, 'cargo fetch', M)).toBe(`cargo ${REPLACE} fetch`))
  it('does not replace crates.io with itself', () => expect(rewrite(cargo, 'cargo fetch', 'https://index.crates.io/')).toBe('cargo fetch'))
  // cargo takes the last --config that sets a key: resilient's goes after the person's own, or theirs would win.
  it('puts its source replacement after the command\'s own --config', () => {
    const own = '--config source.crates-io.replace-with="own" --config=source.own.registry="sparse+https://rsproxy.cn/index/"'
    expect(rewrite(cargo, `cargo ${own} fetch`, M)).toBe(`cargo --config 'source.crates-io.replace-with="own"' '--config=source.own.registry="sparse+https://rsproxy.cn/index/"' ${REPLACE} fetch`)
    expect(rewrite(cargo, 'cargo +nightly fetch --config net.retry=2 --locked', M)).toBe(`cargo +nightly fetch --config net.retry=2 ${REPLACE} --locked`)
  })
  it('leaves cargo run alone', () => expect(rewrite(cargo, 'cargo run -- --port 80', M)).toBe('cargo run -- --port 80'))
})

describe('cargo: classify', () => {
  const classify = (args: string) => cargo.classify(args.split(' ').filter(Boolean))
  it.each(['build', 'b', 'fetch', 'install ripgrep', 'add serde', 'update', 'check', '+stable build', '--config net.retry=5 fetch', 'generate-lockfile'])(
    '%s is network', args => expect(classify(args)).toBe('network'))
  it.each(['publish', 'login', 'owner --add u', 'yank --version 1.0.0'])('%s is publish', args => expect(classify(args)).toBe('publish'))
  it.each(['', 'run', 'test', 'new x', 'clean', 'fmt', '--version', 'build --offline', 'fetch --frozen', 'search serde', '--config net.offline=true build'])(
    '"%s" is local', args => expect(classify(args)).toBe('local'))
})

describe('cargo: the user index choice', () => {
  const project = folderWith({ 'Cargo.toml': '[package]\nname = "x"\n' })
  const index = (cwd: string, args: string, env: NodeJS.ProcessEnv = {}, home?: string) => cargo.findUserIndex(contextIn(cwd, args, env, home))
  it('reads --index and --registry', () => {
    expect(index(project, 'install --index sparse+https://corp.test/index/ x')?.url).toBe('https://corp.test/index/')
    expect(index(project, 'install --registry corp x', { CARGO_REGISTRIES_CORP_INDEX: 'sparse+https://corp.test/' })?.url).toBe('https://corp.test/')
    expect(index(project, 'add --registry unknown x')?.url).toBe('cargo-registry://unknown')
  })
  it('finds a vendored replacement in .cargo/config.toml of a parent folder: never replaced', () => {
    const root = folderWith({ '.cargo/config.toml': '[source.crates-io]\nreplace-with = "vendored-sources"\n\n[source.vendored-sources]\ndirectory = "vendor"\n', 'crate/Cargo.toml': '' })
    const choice = index(join(root, 'crate'), 'build')
    expect(choice).toMatchObject({ url: 'none' })
    expect(planSources({ adapter: cargo, config: configSchema.parse({}), userIndex: choice }).fallbacks).toEqual([])
  })
  it('reads a replacement in $CARGO_HOME/config.toml and the legacy `config` name', () => {
    const cargoHome = folderWith({ config: "[source.crates-io]\nreplace-with = 'corp'\n[source.corp]\nregistry = 'sparse+https://corp.test/'\n" })
    expect(index(project, 'fetch', { CARGO_HOME: cargoHome })?.url).toBe('https://corp.test/')
    expect(index(project, 'fetch', {}, folderWith({ '.cargo/config.toml': "[source.crates-io]\nreplace-with = 'rsproxy'\n[source.rsproxy]\nregistry = 'sparse+https://rsproxy.cn/index/'\n" }))?.url).toBe('https://rsproxy.cn/index/')
  })
  it('reads --config on the command line over files', () => {
    expect(index(project, `--config source.crates-io.replace-with="v" --config source.v.directory="vendor" build`)?.url).toBe('none')
  })
  // Each case as cargo 1.95 resolves it (seen against a dead address: the URL in its error).
  it('follows crates-io to the index cargo really uses: an alternative registry, its variable, a chain, crates-io\'s own registry', () => {
    const replace = 'source.crates-io.replace-with="own"'
    expect(index(project, `--config ${replace} --config registries.own.index="sparse+https://reg.test/" fetch`)?.url).toBe('https://reg.test/')
    expect(index(project, `--config ${replace} fetch`, { CARGO_REGISTRIES_OWN_INDEX: 'sparse+https://env.test/' })?.url).toBe('https://env.test/')
    expect(index(project, `--config ${replace} --config source.own.replace-with="next" --config source.next.registry="sparse+https://chain.test/" fetch`)?.url).toBe('https://chain.test/')
    expect(index(project, '--config source.crates-io.registry="sparse+https://direct.test/" fetch')).toMatchObject({ url: 'https://direct.test/', origin: expect.stringContaining('source.crates-io.registry') })
    const withFile = folderWith({ 'own.toml': "[source.crates-io]\nreplace-with = 'own'\n[source.own]\nregistry = 'sparse+https://file.test/'\n" })
    expect(index(withFile, '--config own.toml fetch')).toMatchObject({ url: 'https://file.test/', origin: expect.stringContaining('--config own.toml') })
  })
  it('reads each key with cargo\'s precedence: --config, then the variable, then the files; never CARGO_SOURCE_*', () => {
    const files = folderWith({ '.cargo/config.toml': "[source.crates-io]\nreplace-with = 'own'\n[registries.own]\nindex = 'sparse+https://file.test/'\n" })
    expect(index(files, 'fetch')?.url).toBe('https://file.test/')
    expect(index(files, 'fetch', { CARGO_REGISTRIES_OWN_INDEX: 'sparse+https://env.test/' })?.url).toBe('https://env.test/')
    expect(index(files, '--config registries.own.index="sparse+https://cli.test/" fetch', { CARGO_REGISTRIES_OWN_INDEX: 'sparse+https://env.test/' })?.url).toBe('https://cli.test/')
    expect(index(project, 'fetch', { CARGO_SOURCE_CRATES_IO_REPLACE_WITH: 'own', CARGO_SOURCE_OWN_REGISTRY: 'sparse+https://env.test/' })).toBeNull()
  })
  it('reads a replacement in a file a config file includes, as cargo 1.95 does: the including file\'s own keys win', () => {
    const other = "[source.crates-io]\nreplace-with = 'corp'\n[source.corp]\nregistry = 'sparse+https://corp.test/'\n"
    expect(index(folderWith({ '.cargo/config.toml': 'include = ["corp.toml"]\n', '.cargo/corp.toml': other }), 'fetch')?.url).toBe('https://corp.test/')
    expect(index(folderWith({ '.cargo/config.toml': '[[include]]\npath = "corp.toml"\n[source.corp]\nregistry = "sparse+https://own.test/"\n', '.cargo/corp.toml': other }), 'fetch')?.url).toBe('https://own.test/')
  })
  it('fails closed on a source it cannot name: a cycle, a name defined nowhere', () => {
    expect(index(project, '--config source.crates-io.replace-with="a" --config source.a.replace-with="crates-io" fetch')?.privateBecause).toMatch(/cycle/)
    expect(index(project, '--config source.crates-io.replace-with="nowhere" fetch')?.privateBecause).toMatch(/"nowhere" is not defined/)
  })
  it('treats offline configuration as a local index', () => expect(index(project, 'build', { CARGO_NET_OFFLINE: 'true' })?.url).toBe('none'))
  it('has no choice by default', () => expect(index(project, 'build')).toBeNull())
  it('finds the user http knobs', () => {
    expect(findUserKnobs(cargo, contextIn(project, 'fetch')).userSet).toBe(false)
    expect(findUserKnobs(cargo, contextIn(project, 'fetch', { CARGO_NET_RETRY: '10' })).origin).toBe('CARGO_NET_RETRY')
    expect(findUserKnobs(cargo, contextIn(folderWith({ '.cargo/config.toml': '[http]\ntimeout = 120\n' }), 'fetch')).userSet).toBe(true)
    expect(findUserKnobs(cargo, contextIn(project, '--config net.retry=9 fetch')).userSet).toBe(true)
  })
  it('addresses sparse index files', () => {
    expect(cargo.packageUrl!('sparse+https://i.test', 'Serde')).toBe('https://i.test/se/rd/serde')
    expect(cargo.packageUrl!('https://i.test/', 'syn')).toBe('https://i.test/3/s/syn')
    expect(cargo.packageUrl!('https://i.test/', 'cc')).toBe('https://i.test/2/cc')
  })
})
