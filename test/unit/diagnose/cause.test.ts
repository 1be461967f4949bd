import { describe, expect, it } from 'vitest'
import { innermostCauses } from '../../../src/diagnose/cause.js'
import { normalizeFailure } from '../../../src/diagnose/normalize.js'
import { fixture } from './rule-cases.js'

const causesOf = (name: string) => innermostCauses(normalizeFailure(fixture(name)))

describe('innermostCauses', () => {
  it('reads the last ╰─▶ of a uv chain', () => expect(causesOf('uv/py-133-ssl')).toEqual(['invalid peer certificate: UnknownIssuer']))
  it('reads the last Caused by: of old uv', () => expect(causesOf('uv/py-019-dns')).toEqual(['dns error: No such host is known. (os error 11001) (EAI_NONAME)']))
  it("reads pixi's ASCII chain", () => expect(causesOf('pixi/cj-076-ssl')).toEqual(['invalid peer certificate: UnknownIssuer']))
  it('reads cargo causes printed below "Caused by:"', () => expect(causesOf('cargo/captured-dns').join('\n')).toContain('Could not resolve host: no-such-host.invalid'))
  it('keeps the lines that continue the innermost link', () => expect(causesOf('uv/py-138-timeout')).toEqual(['Failed to download distribution due to network timeout. Try increasing', 'UV_HTTP_TIMEOUT (current value: 30s).']))
  it('reads the first exception of a chained Python traceback', () => expect(causesOf('pip/py-160-connection')).toContain('pip._vendor.urllib3.exceptions.IncompleteRead: IncompleteRead(36977 bytes read, 279 more expected)'))
  it('reads the innermost cause of every chain in a log', () => expect(causesOf('uv/py-020-dns').filter(line => line.includes('Temporary failure in name resolution')).length).toBeGreaterThan(1))
  it('is empty without a chain', () => expect(causesOf('pip/py-004-timeout')).toEqual([]))
})
