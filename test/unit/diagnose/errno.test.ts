import { describe, expect, it } from 'vitest'
import { errnoName } from '../../../src/diagnose/errno.js'
import { statusOf } from '../../../src/diagnose/http-status.js'

const _ = (line: string, expected: string | undefined) => () => expect(errnoName(line)).toBe(expected)

describe('errnoName: the number is the stable part of a localized message', () => {
  it('reads Winsock resets', _("error(10054, 'Une connexion existante a dû être fermée')", 'ECONNRESET'))
  it('reads WinError refusals in any language', _('[WinError 10061] 由于目标计算机积极拒绝，无法连接。', 'ECONNREFUSED'))
  it('reads Windows getaddrinfo failures', _('[Errno 11001] getaddrinfo failed', 'EAI_NONAME'))
  it('reads glibc getaddrinfo failures', _('[Errno -3] Temporary failure in name resolution', 'EAI_AGAIN'))
  it('reads Linux errno in Python', _('[Errno 28] No space left on device', 'ENOSPC'))
  it('reads macOS errno in exception arguments', _("TimeoutError(60, 'Operation timed out')", 'ETIMEDOUT'))
  it('reads Rust os errors', _('Permission denied (os error 13)', 'EACCES'))
  it('reads Node libuv codes', _('errno: -4077', 'ECONNRESET'))
  it('reads the lock errors of file systems without locks', _('failed to lock `~/.cache/uv/.lock`: Unknown error 524 (os error 524)', 'ENOTSUPP'))
  it('reads ENOLCK in Python', _('OSError: [Errno 37] No locks available', 'ENOLCK'))
  it("reads Windows' os error 5 as access denied, in English", _('Access is denied. (os error 5)', 'EACCES'))
  it("reads Windows' os error 5 in another language", _('`-> 拒绝访问。 (os error 5)', 'EACCES'))
  it("reads Windows' os error 32 as a file in use", _('The process cannot access the file because it is being used by another process. (os error 32)', 'EBUSY'))
  it('leaves os error 5 unnamed on Unix, where it is EIO', _('failed to read `x`: Input/output error (os error 5)', undefined))
  it('reads os error 32 as EPIPE on Unix', _('Broken pipe (os error 32)', 'EPIPE'))
  it('ignores numbers that are not errno (an SSL error code)', _("SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED]", undefined))
  it('ignores lines without a number', _('Connection reset by peer', undefined))
})

describe('statusOf: an OS error number is not an HTTP status', () => {
  it('reads a status after "error"', () => expect(statusOf('npm error 503 Service Unavailable - GET https://registry.npmjs.org/x')).toBe(503))
  it("ignores Rust's (os error N)", () => expect(statusOf('failed to lock `~/.cache/uv/.lock`: Unknown error 524 (os error 524)')).toBeUndefined())
  it("ignores glibc's Unknown error N", () => expect(statusOf('failed to lock `x`: Unknown error 512')).toBeUndefined())
})
