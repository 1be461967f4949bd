import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { MIRRORS } from '../../../src/mirrors/index.js'
import { withMirrorCatalog } from '../../../src/mirrors/docs.js'

const page = readFileSync(new URL('../../../docs/mirrors.md', import.meta.url), 'utf8')

describe('the built-in mirror catalog', () => {
  it('is listed in docs/mirrors.md as src/mirrors says (npm run docs:mirrors)', () => {
    expect(withMirrorCatalog(page), 'docs/mirrors.md catalog table is stale: run npm run docs:mirrors').toBe(page)
  })

  it('says of each entry where it is and when and how it was checked, each an https index under a name of its own', () => {
    for (const [ecosystem, mirrors] of Object.entries(MIRRORS)) {
      expect(new Set(mirrors.map(mirror => mirror.id)).size, ecosystem).toBe(mirrors.length)
      for (const mirror of mirrors) {
        expect(mirror.region, `${ecosystem} ${mirror.id}`).toMatch(/^(cn|kr|global)$/)
        expect(mirror.checkedOn, `${ecosystem} ${mirror.id}`).toMatch(/^\d{4}-\d{2}-\d{2}/)
        expect(mirror.url, `${ecosystem} ${mirror.id}`).toMatch(/^https:\/\//)
      }
    }
  })

  it('has a mirror outside mainland China for PyPI, npm, conda and Go (none is known for crates.io)', () => {
    const outside = (ecosystem: keyof typeof MIRRORS) => MIRRORS[ecosystem].filter(mirror => mirror.region !== 'cn').map(mirror => mirror.id)
    expect(outside('pypi')).toEqual(['kakao'])
    expect(outside('npm')).toEqual(['yarnpkg'])
    expect(outside('conda')).toEqual(['prefix'])
    expect(outside('go')).toEqual(['goproxy-io'])
    expect(outside('crates')).toEqual([])
  })
})
