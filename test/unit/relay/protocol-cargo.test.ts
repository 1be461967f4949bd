import { describe, expect, it } from 'vitest'
import type { RelayContext } from '../../../src/relay/context.js'
import { CARGO_PROTOCOL, downloadUrl } from '../../../src/relay/protocol-cargo.js'

const context = {} as RelayContext
const kind = (path: string, method = 'GET') => CARGO_PROTOCOL.route(path, method, context).kind

describe('cargo sparse index: what is a page and what is a file', () => {
  it.each([
    ['config.json', 'page'],
    ['1/a', 'page'],
    ['3/s/syn', 'page'],
    ['se/rd/serde', 'page'],
    ['dl/serde/1.0.200/download', 'file'],
  ])('%s is a %s', (path, expected) => expect(kind(path)).toBe(expected))
  it('sends anything but GET and HEAD to the index alone', () => expect(kind('api/v1/crates/new', 'PUT')).toBe('other'))
  it('gives cargo the relay as a sparse index', () => expect(CARGO_PROTOCOL.indexUrl('http://127.9.8.7:21000/')).toBe('sparse+http://127.9.8.7:21000/'))
})

describe('a source\'s download URL from its config.json `dl` (cargo book, "Index Format")', () => {
  it.each([
    ['https://static.crates.io/crates', 'https://static.crates.io/crates/serde/1.0.200/download'],
    ['https://static.crates.io/crates/', 'https://static.crates.io/crates/serde/1.0.200/download'],
    ['https://mirror.example/{prefix}/{crate}/{crate}-{version}.crate', 'https://mirror.example/se/rd/serde/serde-1.0.200.crate'],
    ['https://mirror.example/{lowerprefix}/{crate}/{sha256-checksum}', 'https://mirror.example/se/rd/serde/abc'],
  ])('%s', (dl, expected) => expect(downloadUrl(dl, 'serde', '1.0.200', 'abc')).toBe(expected))
  it('spells short names\' prefixes as the index does', () => {
    expect(downloadUrl('https://m.example/{prefix}/{crate}', 'ab', '1.0.0')).toBe('https://m.example/2/ab')
    expect(downloadUrl('https://m.example/{prefix}/{crate}', 'syn', '1.0.0')).toBe('https://m.example/3/s/syn')
  })
})
