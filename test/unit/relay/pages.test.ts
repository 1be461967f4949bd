import { describe, expect, it } from 'vitest'
import type { ExpectedHash } from '../../../src/relay/expected-hash.js'
import { fileRoots } from '../../../src/relay/links.js'
import { packumentRule } from '../../../src/relay/npm-pages.js'
import { rewritePypiHtml, rewritePypiJson } from '../../../src/relay/pypi-pages.js'
import { TokenRewriter } from '../../../src/relay/token-stream.js'

const RELAY = 'http://127.0.0.1:7000/'
const SHA = 'a'.repeat(64)
const pypi = { pageUrl: 'https://pypi.org/simple/torch/', relayBase: RELAY, roots: fileRoots(['https://files.pythonhosted.org/', 'https://pypi.tuna.tsinghua.edu.cn/']) }

describe('PEP 503 pages through the relay', () => {
  it('points file links at the relay and changes nothing else: hashes, metadata and requires-python stay byte for byte', () => {
    const page = `<a href="https://files.pythonhosted.org/packages/ab/cd/torch-2.0-cp311-none-any.whl#sha256=${SHA}" data-requires-python="&gt;=3.8" data-core-metadata="sha256=${'b'.repeat(64)}">torch-2.0-cp311-none-any.whl</a><br/>`
    const { text: out, hashes } = rewritePypiHtml(page, pypi)
    expect(out).toBe(page.replace('https://files.pythonhosted.org/', RELAY))
    expect(hashes.map(([path, found]) => [path, found[0]!.algorithm])).toEqual([['packages/ab/cd/torch-2.0-cp311-none-any.whl', 'sha256'], ['packages/ab/cd/torch-2.0-cp311-none-any.whl.metadata', 'sha256']])
  })

  it('resolves relative links against the page (a mirror) and its <base href>, as pip does', () => {
    const mirror = { ...pypi, pageUrl: 'https://pypi.tuna.tsinghua.edu.cn/simple/torch/' }
    expect(rewritePypiHtml(`<a href="../../packages/x.whl">x</a>`, mirror).text).toBe(`<a href="${RELAY}packages/x.whl">x</a>`)
    expect(rewritePypiHtml(`<base href="https://pypi.tuna.tsinghua.edu.cn/packages/"><a href='y.whl'>y</a>`, mirror).text)
      .toBe(`<base href="https://pypi.tuna.tsinghua.edu.cn/packages/"><a href="${RELAY}packages/y.whl">y</a>`)
  })

  it('leaves a link to a host no source serves pointing where it pointed, made absolute', () => {
    expect(rewritePypiHtml(`<a href="https://example.com/x.whl?a=1&amp;b=2">x</a>`, pypi).text).toBe(`<a href="https://example.com/x.whl?a=1&amp;b=2">x</a>`)
    expect(rewritePypiHtml(`<a href="/other/x.whl">x</a>`, pypi).text).toBe(`<a href="https://pypi.org/other/x.whl">x</a>`)
  })

  it('rewrites PEP 691 JSON urls and learns their hashes; other fields untouched', () => {
    const page = { meta: { 'api-version': '1.1' }, name: 'torch', files: [{ filename: 't.whl', url: '../../packages/t.whl', hashes: { sha256: SHA }, 'core-metadata': { sha256: SHA }, yanked: false, size: 12 }] }
    const mirror = { ...pypi, pageUrl: 'https://pypi.tuna.tsinghua.edu.cn/simple/torch/' }
    const { text: out, hashes } = rewritePypiJson(JSON.stringify(page), mirror)
    expect(JSON.parse(out)).toEqual({ ...page, files: [{ ...page.files[0], url: `${RELAY}packages/t.whl` }] })
    expect(hashes.map(([path]) => path)).toEqual(['packages/t.whl', 'packages/t.whl.metadata'])
  })
})

describe('npm packuments through the relay', () => {
  const roots = fileRoots(['https://registry.npmjs.org/', 'https://registry.npmmirror.com/'])
  const packument = (tarball: string) => JSON.stringify({ name: 'a', versions: { '1.0.0': { name: 'a', readme: '"dist":{"tarball":"not this"}', dist: {
    integrity: 'sha512-AAAA', shasum: 'b'.repeat(40), tarball, signatures: [{ keyid: 'k', sig: 's' }], attestations: { url: 'u', provenance: { predicateType: 'p' } } } } } }, null, 1)
  const rewrite = async (input: string, tarballRoot: string, cut: number) => {
    const learned: [string, ExpectedHash[]][] = []
    const rule = packumentRule({ roots, tarballRoot, learn: (path, hashes) => learned.push([path, hashes]) })
    const bytes = Buffer.from(input)
    const rewriter = new TokenRewriter(rule)
    return { out: rewriter.feed(bytes.subarray(0, cut)) + rewriter.feed(bytes.subarray(cut)) + rewriter.end(), learned }
  }

  it('points a mirror\'s tarball at the index\'s own URL (what package-lock.json records), wherever the stream is cut', async () => {
    const input = packument('https://registry.npmmirror.com/a/-/a-1.0.0.tgz')
    for (const cut of [10, input.indexOf('"dist"') + 3, input.indexOf('tarball'), input.length - 5]) {
      const { out, learned } = await rewrite(input, 'https://registry.npmjs.org/', cut)
      expect(out).toBe(input.replace('registry.npmmirror.com', 'registry.npmjs.org'))
      expect(learned.map(([path, hashes]) => [path, hashes[0]?.algorithm])).toEqual([['a/-/a-1.0.0.tgz', 'sha512']])
    }
  })

  it('leaves the index\'s own packument byte for byte, and a tarball on an unknown host alone', async () => {
    const own = packument('https://registry.npmjs.org/a/-/a-1.0.0.tgz')
    expect((await rewrite(own, 'https://registry.npmjs.org/', 50)).out).toBe(own)
    const elsewhere = packument('https://cdn.example/a-1.0.0.tgz')
    expect((await rewrite(elsewhere, 'https://registry.npmjs.org/', 50)).out).toBe(elsewhere)
  })
})

describe('what the terminal says about the relay', async () => {
  const { describeEvent, shortFileName } = await import('../../../src/relay/describe.js')
  it('names a long wheel by its name and version, and a break by where it happened', () => {
    expect(shortFileName('packages/ab/cd/torch-2.9.1-cp311-cp311-manylinux_2_28_x86_64.whl')).toBe('torch-2.9.1…whl')
    expect(describeEvent({ kind: 'resume', path: 'packages/torch-2.9.1-cp311-cp311-manylinux_2_28_x86_64.whl', from: 'pypi.org', to: 'tuna', atBytes: 612e6, why: 'broke' }))
      .toBe('torch-2.9.1…whl: pypi.org broke at 612 MB, resuming from tuna')
    expect(describeEvent({ kind: 'failover', path: 'left-pad/-/left-pad-1.3.0.tgz', from: 'registry.npmjs.org', to: 'npmmirror', why: 'server-error' }))
      .toBe('left-pad-1.3.0.tgz: registry.npmjs.org answered with a server error, served by npmmirror')
    expect(describeEvent({ kind: 'failover', path: 'simple/torch/', from: 'pypi.org', to: 'tuna', why: 'slow' })).toBeUndefined()
  })
  it('says a Retry-After is waited out, and how long', () => {
    expect(describeEvent({ kind: 'waiting', path: 'simple/torch/', source: 'pypi.org', ms: 3000 }))
      .toBe('torch: pypi.org is rate-limiting (429) and asked to wait 3 s: waiting it out, then asking again (said once per host)')
  })
})
