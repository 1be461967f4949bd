import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { userInfo } from 'node:os'
import { join } from 'node:path'
import { buildCrate, startCratesRegistry, type Crate } from '../crates-registry.js'
import { pickVersion, type Subject } from './subject.js'

const CRATE = 'tinyanswer'
const VERSIONS = ['0.1.0', '0.1.1'] as const
// Built once: every registry serves identical bytes, as a mirror does. 1 MB of incompressible padding each: a
// download that breaks at 80 % has something to resume, and its bytes dwarf the index's pages.
let crates: readonly [Crate, Crate] | undefined
const built = () => (crates ??= [buildCrate(CRATE, '0.1.0', 42, 1_000_000), buildCrate(CRATE, '0.1.1', 43, 1_000_000)])

/** rustup's toolchains: its `cargo` proxy looks for them under HOME, which every run has of its own. */
const RUSTUP_HOME = process.env.RUSTUP_HOME ?? join(userInfo().homedir, '.rustup')

/**
 * `cargo fetch` in a library that depends on the crate, its crates-io replaced by the index in the project's
 * .cargo/config.toml, as a person points cargo at a registry of their own for every run (the relay's own
 * replacement, given with `--config`, takes precedence over the file's). CARGO_HOME in the working directory: nothing
 * cached, and what was downloaded is there to read.
 */
export const cargo: Subject = {
  tool: 'cargo',
  ecosystem: 'crates',
  page: `/ti/ny/${CRATE}`,
  privateName: 'corp-secret-crate',
  get fileBytes() { return built()[0].bytes.length },
  isFile: path => path.startsWith('/dl/'),
  start: ({ role, fault, lacksNewest }) => {
    if (role === 'private') throw new Error('cargo: no private source case')
    return startCratesRegistry(built(), { fault, missing: lacksNewest ? [`${CRATE}@0.1.1`] : [] })
  },
  command: (index, workdir, { want, extra }) => {
    const requirement = want.version === 'any' ? '0.1' : `=${pickVersion(want, 'oldest', VERSIONS)}`
    mkdirSync(join(workdir, 'src'), { recursive: true })
    mkdirSync(join(workdir, '.cargo'), { recursive: true })
    writeFileSync(join(workdir, 'Cargo.toml'), `[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n${CRATE} = "${requirement}"\n`)
    writeFileSync(join(workdir, 'src', 'lib.rs'), `pub fn f() -> u32 { ${CRATE}::answer() }\n`)
    writeFileSync(join(workdir, '.cargo', 'config.toml'), `[source.crates-io]\nreplace-with = "own"\n\n[source.own]\nregistry = "sparse+${index}"\n`)
    return ['cargo', 'fetch', ...extra]
  },
  env: (_index, workdir) => ({ CARGO_HOME: join(workdir, 'cargo-home'), ...existsSync(RUSTUP_HOME) && { RUSTUP_HOME } }),
  // The .crate files cargo kept in its download cache (one folder per registry).
  installed: workdir => {
    const cache = join(workdir, 'cargo-home', 'registry', 'cache')
    const kept = existsSync(cache) ? readdirSync(cache).flatMap(registry => readdirSync(join(cache, registry))) : []
    return kept.filter(name => name.endsWith('.crate')).map(name => name.replace(/^(.*)-(\d[^-]*)\.crate$/, '$1@$2')).sort()
  },
  expected: (want, version) => [`${CRATE}@${pickVersion(want, version, VERSIONS)}`],
  ownTimeout: ['--config', 'http.timeout=3', '--config', 'net.retry=0'],
  // http.timeout is a low-speed window as well as the connection's: none for a read alone.
  readTimeout: [],
  // cargo's first retry of a spurious error (a 5xx, a connection or transfer error) waits 0.5 to 1.5 s
  // (src/cargo/util/network/retry.rs, net.retry): all that a relay can save in a run of 1 to 3 s.
  notWon: {
    'one-503': 'cargo asks again itself after a 503, 0.5 to 1.5 s later (net.retry), in a run of 1 to 3 s: the relay saves that wait, not half the run',
    'break-80': 'cargo fetches a broken download again itself, 0.5 to 1.5 s later and from its first byte (net.retry): the relay saves those bytes (1.0× the file\'s against 1.8×) and that wait, not half of a 1 to 3 s run',
  },
}
