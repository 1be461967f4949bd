import { createPrivateKey, X509Certificate } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { positiveInteger, relayCertificate } from '../../../src/relay/certificate.js'
import { GOPROXY_PROTOCOL } from '../../../src/relay/protocol-goproxy.js'
import { goproxyWithRelay } from '../../../src/tools/relay/go-relay.js'

const kind = (path: string, method = 'GET') => GOPROXY_PROTOCOL.route(path, method).kind

describe('goproxy: what is a page and what is a file', () => {
  it.each([
    ['golang.org/x/text/@v/list', 'page'],
    ['golang.org/x/text/@latest', 'page'],
    // A query that is not a version asks what a branch or commit is: the index says.
    ['golang.org/x/text/@v/master.info', 'page'],
    ['github.com/!burnt!sushi/toml/@v/v1.3.2.info', 'file'],
    ['github.com/!burnt!sushi/toml/@v/v1.3.2.mod', 'file'],
    ['github.com/!burnt!sushi/toml/@v/v1.3.2.zip', 'file'],
    ['example.com/m/@v/v2.0.0+incompatible.zip', 'file'],
    ['example.com/m/@v/v0.0.0-20240101000000-abcdefabcdef.mod', 'file'],
    ['sumdb/sum.golang.org/supported', 'page'],
    // The newest signed tree head changes: the index's, never a splice of two sources' copies.
    ['sumdb/sum.golang.org/latest', 'page'],
    ['sumdb/sum.golang.org/lookup/golang.org/x/text@v0.3.0', 'file'],
    ['sumdb/sum.golang.org/tile/8/0/001', 'file'],
    ['something/else', 'other'],
  ])('%s is a %s', (path, expected) => expect(kind(path)).toBe(expected))
  it('sends anything but GET and HEAD to the index alone', () => expect(kind('golang.org/x/text/@v/list', 'POST')).toBe('other'))
  it('is served over https: go sends credentials over https only', () => expect(GOPROXY_PROTOCOL.tls).toBe(true))
})

describe('goproxy: the person\'s GOPROXY list with the relay in the index\'s place', () => {
  const RELAY = 'https://127.9.8.7:21000'
  it.each([
    [undefined, 'https://proxy.golang.org', `${RELAY},direct`],
    ['https://proxy.golang.org,direct', 'https://proxy.golang.org/', `${RELAY},direct`],
    // `|` falls through on any error, `,` only on 404/410: each kept where it is.
    ['https://proxy.golang.org|direct', 'https://proxy.golang.org', `${RELAY}|direct`],
    ['direct,https://proxy.golang.org,off', 'https://proxy.golang.org', `direct,${RELAY},off`],
    ['https://goproxy.cn,https://proxy.golang.org,direct', 'https://goproxy.cn', `${RELAY},https://proxy.golang.org,direct`],
    // An index resilient's own config names, not in the list: first, with direct after it as the restart loop does.
    ['https://proxy.golang.org,direct', 'https://goproxy.io', `${RELAY},direct`],
  ])('%s, index %s: %s', (list, index, expected) => expect(goproxyWithRelay(list, index, RELAY)).toBe(expected))
})

describe('the relay\'s certificate', () => {
  it('names the relay\'s address and 127.0.0.1, is self-signed, not a CA, and lasts a day', () => {
    const now = new Date('2026-12-07T12:00:00Z')
    const { cert, key } = relayCertificate(['127.9.8.7', '127.0.0.1'], now)
    const parsed = new X509Certificate(cert)
    expect(parsed.subjectAltName).toBe('IP Address:127.9.8.7, IP Address:127.0.0.1')
    expect(parsed.checkIP('127.9.8.7')).toBe('127.9.8.7')
    expect(parsed.verify(parsed.publicKey)).toBe(true)
    expect(parsed.ca).toBe(false)
    expect(new Date(parsed.validTo).getTime() - now.getTime()).toBe(86_400_000)
    expect(parsed.checkPrivateKey(createPrivateKey(key))).toBe(true)
  })
  it.each([
    ['00', '02 01 00'], ['0000', '02 01 00'], ['7f', '02 01 7f'], ['80', '02 02 00 80'], ['000080', '02 02 00 80'], ['0001ff', '02 02 01 ff'],
  ])('writes the integer %s as %s', (bytes, expected) => expect(positiveInteger(Buffer.from(bytes, 'hex')).toString('hex').match(/../g)!.join(' ')).toBe(expected))
  // Seen in CI: a random serial starting with a zero byte, written as it came, made OpenSSL refuse the certificate
  // ("asn1 encoding routines::illegal padding") and the run went without its relay, about once in 256 runs.
  it.each([
    ['a leading zero byte', '00', '05'], ['two leading zero bytes', '0000', '7f'], ['the top bit set', '', 'ff'], ['a zero then the top bit', '00', '80'],
  ])('takes a serial with %s', (_, zeros, next) => {
    const bytes = Buffer.alloc(16, 0x11)
    Buffer.from(zeros + next, 'hex').copy(bytes)
    const parsed = new X509Certificate(relayCertificate(['127.0.0.1'], new Date(), () => bytes).cert)
    expect(BigInt(`0x${parsed.serialNumber}`)).toBe(BigInt(`0x${bytes.toString('hex')}`) | 1n)
  })
  it('is always a certificate OpenSSL reads, whatever the random serial', () => {
    for (let i = 0; i < 300; i++) expect(() => new X509Certificate(relayCertificate(['127.0.0.1']).cert)).not.toThrow()
  })
  it('is new each time', () => expect(relayCertificate(['127.0.0.1']).cert).not.toBe(relayCertificate(['127.0.0.1']).cert))
})
