import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { DigestTable } from '../../../src/relay/digest-table.js'
import { fileRoots } from '../../../src/relay/links.js'
import { CONDA_PROTOCOL, packageDirectory } from '../../../src/relay/protocol-conda.js'
import { RepodataScanner } from '../../../src/relay/repodata-scanner.js'

const sha = (text: string) => createHash('sha256').update(text).digest('hex')
const kind = (path: string, method = 'GET') => CONDA_PROTOCOL.route(path, method).kind

describe('conda channel paths through the relay', () => {
  it.each([
    ['conda-forge/linux-64/repodata.json', 'page'],
    ['conda-forge/noarch/current_repodata.json', 'page'],
    ['conda-forge/channeldata.json', 'page'],
    ['conda-forge/linux-64/repodata.json.zst', 'absent'],
    ['conda-forge/linux-64/repodata.json.bz2', 'absent'],
    ['conda-forge/linux-64/current_repodata.json.zst', 'absent'],
    ['conda-forge/linux-64/repodata.jlap', 'absent'],
    ['conda-forge/linux-64/repodata_shards.msgpack.zst', 'absent'],
    ['conda-forge/linux-64/shards/0a1b.msgpack.zst', 'absent'],
    ['conda-forge/linux-64/zlib-1.3.1-hb9d3cd8_2.conda', 'file'],
    ['pkgs/main/noarch/six-1.16.0-pyhd3eb1b0_1.tar.bz2', 'file'],
  ])('%s is a %s', (path, expected) => expect(kind(path)).toBe(expected))

  it('sends anything but a read to the index alone', () => expect(kind('conda-forge/linux-64/repodata.json', 'POST')).toBe('other'))

  it('finds packages beside their repodata, or under its base_url when that is on a source', () => {
    const roots = fileRoots(['https://conda.anaconda.org/', 'https://mirror.test/anaconda/cloud/'])
    expect(packageDirectory('https://mirror.test/anaconda/cloud/conda-forge/linux-64/repodata.json', undefined, roots)).toBe('conda-forge/linux-64/')
    expect(packageDirectory('https://conda.anaconda.org/c/linux-64/repodata.json', '../../pkgs/c', roots)).toBe('pkgs/c/')
    expect(packageDirectory('https://conda.anaconda.org/c/linux-64/repodata.json', 'https://elsewhere.test/c/', roots)).toBeUndefined()
  })
})

/** The findings of a scan of `text` fed in pieces of `size` characters' bytes. */
function scan(text: string, size = text.length) {
  const packages: [string, string][] = []
  const bases: string[] = []
  const scanner = new RepodataScanner({ package: (name, digest) => packages.push([name, digest]), baseUrl: url => bases.push(url) })
  const bytes = Buffer.from(text)
  for (let at = 0; at < bytes.length; at += size) scanner.feed(bytes.subarray(at, at + size))
  scanner.end()
  return { packages, bases }
}

const REPODATA = JSON.stringify({
  info: { subdir: 'linux-64', base_url: 'https://x.test/ch/' },
  packages: {
    'a-1.0-0.tar.bz2': { name: 'a', depends: ['b >=1', 'c "quoted" \\ {x}'], md5: 'f'.repeat(32), sha256: sha('a'), size: 10 },
    'b-1.0-0.tar.bz2': { name: 'b', md5: 'e'.repeat(32), size: 5, summary: 'ends in backslashes \\\\', 'key\\': ['\\', '\\"\\'] },
  },
  'packages.conda': {
    'c-ü-1.0-0.conda': { name: 'c', constrains: [], license: 'has a } and a " in it', sha256: sha('c') },
    'd-1.0-0.conda': { nested: { sha256: sha('not this one') }, sha256: 'not hex' },
  },
  removed: ['e-1.0-0.tar.bz2'],
  signatures: { 'a-1.0-0.tar.bz2': { sha256: sha('not a package table') } },
  repodata_version: 2,
})

describe('a repodata page read as it streams', () => {
  const expected = [['a-1.0-0.tar.bz2', sha('a')], ['c-ü-1.0-0.conda', sha('c')]]

  it('learns each package sha256 from packages and packages.conda, and base_url', () => {
    expect(scan(REPODATA)).toEqual({ packages: expected, bases: ['https://x.test/ch/'] })
  })

  it('finds the same whatever the chunks: cut inside strings, escapes and multibyte characters', () => {
    for (const size of [1, 2, 3, 7, 64]) expect(scan(REPODATA, size).packages).toEqual(expected)
  })

  it('finds the same in pretty-printed JSON, as some channels serve it', () => {
    expect(scan(JSON.stringify(JSON.parse(REPODATA), null, 2), 5).packages).toEqual(expected)
  })

  it('learns nothing from what is not repodata, without throwing', () => {
    expect(scan('<html>503 Service Unavailable</html>').packages).toEqual([])
    expect(scan('{"packages": {"x.conda": {"sha256": "ab').packages).toEqual([])
  })
})

describe('the compact digest table', () => {
  it('keeps a digest per path through growth, and answers undefined for a path it never learned', () => {
    const table = new DigestTable()
    const paths = Array.from({ length: 50_000 }, (_, i) => `conda-forge/linux-64/pkg-${i}-h${i.toString(16)}_0.conda`)
    for (const path of paths) table.set(path, createHash('sha256').update(path).digest())
    expect(table.size).toBe(paths.length)
    expect(paths.every(path => table.get(path)!.equals(createHash('sha256').update(path).digest()))).toBe(true)
    expect(table.get('conda-forge/linux-64/never-1.0-0.conda')).toBeUndefined()
    // 40 bytes a slot, at most 3/4 full, doubling: under 110 bytes an entry.
    expect(table.bytes / table.size).toBeLessThan(110)
  })

  it('replaces a digest learned again (a later page of the index), and stops learning at its limit', () => {
    const table = new DigestTable(2)
    table.set('a', Buffer.alloc(32, 1))
    table.set('a', Buffer.alloc(32, 2))
    table.set('b', Buffer.alloc(32, 3))
    table.set('c', Buffer.alloc(32, 4))
    expect([table.get('a')?.[0], table.get('b')?.[0], table.get('c')]).toEqual([2, 3, undefined])
  })
})
