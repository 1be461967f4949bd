// Localized OS messages differ by language ("Une connexion existante a dû être fermée", "由于目标计算机积极拒绝"),
// but the number beside them does not. These tables give the symbolic name the rules read.

/** Python `[Errno N]`, `XxxError(N, ...)`, Rust `(os error N)` on Linux and macOS; the few overlaps are obscure. */
const POSIX: Record<string, string> = {
  1: 'EPERM', 13: 'EACCES', 28: 'ENOSPC', 32: 'EPIPE',
  // Linux; 524 is the kernel's ENOTSUPP, which glibc has no text for ("Unknown error 524"): NFS and Lustre refusing flock
  37: 'ENOLCK', 38: 'ENOSYS', 95: 'EOPNOTSUPP', 524: 'ENOTSUPP', 101: 'ENETUNREACH', 103: 'ECONNABORTED', 104: 'ECONNRESET', 110: 'ETIMEDOUT', 111: 'ECONNREFUSED', 113: 'EHOSTUNREACH', 122: 'EDQUOT',
  // macOS and BSD
  51: 'ENETUNREACH', 53: 'ECONNABORTED', 54: 'ECONNRESET', 60: 'ETIMEDOUT', 61: 'ECONNREFUSED', 65: 'EHOSTUNREACH', 69: 'EDQUOT',
}

/** Winsock and Win32 codes: `[WinError N]`, `[Errno 10054]`, `(os error 11001)`. */
const WINDOWS: Record<string, string> = {
  5: 'EACCES', 32: 'EBUSY', 33: 'EBUSY', 112: 'ENOSPC',
  10013: 'EACCES', 10051: 'ENETUNREACH', 10053: 'ECONNABORTED', 10054: 'ECONNRESET', 10060: 'ETIMEDOUT', 10061: 'ECONNREFUSED',
  10065: 'EHOSTUNREACH', 11001: 'EAI_NONAME', 11002: 'EAI_AGAIN', 11004: 'EAI_NODATA',
}

/** Python's socket.gaierror: `[Errno -2] Name or service not known`, `[Errno 8] nodename nor servname` (macOS). */
const GETADDRINFO: Record<string, string> = { '-2': 'EAI_NONAME', '-3': 'EAI_AGAIN', '-5': 'EAI_NODATA', 8: 'EAI_NONAME' }

/** Node's negative libuv codes: `errno: -13`, `errno -4077` (Windows codes are below -4000). */
const LIBUV: Record<string, string> = {
  '-1': 'EPERM', '-13': 'EACCES', '-28': 'ENOSPC', '-104': 'ECONNRESET', '-110': 'ETIMEDOUT', '-111': 'ECONNREFUSED',
  '-101': 'ENETUNREACH', '-113': 'EHOSTUNREACH', '-3008': 'ENOTFOUND', '-3001': 'EAI_AGAIN',
  '-4077': 'ECONNRESET', '-4078': 'ECONNREFUSED', '-4039': 'ETIMEDOUT', '-4092': 'EACCES', '-4048': 'EPERM', '-4055': 'ENOSPC',
}

/** strerror(EIO) and strerror(EPIPE) in glibc and macOS: what Rust prints before `(os error 5)` and `(os error 32)` there. */
const UNIX_TEXT: Record<string, RegExp> = { 5: /Input\/output error \(os error 5\)/, 32: /Broken pipe \(os error 32\)/ }

// Each alternative is a fixed keyword and a bounded number: linear time. Only OS exceptions carry an errno as their
// first argument (`SSLCertVerificationError(1, ...)` does not).
const ERRNO = /\[WinError (\d{1,5})\]|WinError (\d{1,5})\b|\[?Errno (-?\d{1,5})\]?|\(os error (\d{1,5})\)|\b(?:Connection(?:Reset|Refused|Aborted)Error|TimeoutError|BrokenPipeError|PermissionError|FileNotFoundError|OSError|IOError|gaierror|error)\((-?\d{1,5}), ['"]|\berrno:? (-\d{1,5})\b/

/** The symbolic errno a line reports by number, if any (`ECONNRESET` for `error(10054, 'Une connexion ...')`). */
export function errnoName(line: string): string | undefined {
  const match = ERRNO.exec(line)
  if (!match) return undefined
  const [, winBracket, win, python, os, exception, node] = match
  const windowsCode = winBracket ?? win
  if (windowsCode) return WINDOWS[windowsCode]
  if (node) return LIBUV[node]
  const code = python ?? exception ?? os
  if (code === undefined) return undefined
  if (python && GETADDRINFO[code]) return GETADDRINFO[code]
  // `(os error 5)` and `(os error 32)` mean "access denied" and "file in use" on Windows but EIO and EPIPE on Linux
  // and macOS. Rust's io::Error shows the system's own text before the number: strerror's English on Unix (Rust never
  // sets a locale), FormatMessageW's words in the language of Windows ("Access is denied.", "拒绝访问。"). Only the Unix
  // texts tell the Unix meaning. Numbers above 10000 are Winsock whatever the spelling.
  if (os && UNIX_TEXT[code]) return UNIX_TEXT[code]!.test(line) ? POSIX[code] : WINDOWS[code]
  return Number(code) >= 10000 ? WINDOWS[code] : POSIX[code]
}

/** Appends ` (ECONNRESET)` to a line that reports an errno by number only, so that rules read one spelling. */
export function annotateErrno(line: string): string {
  const name = errnoName(line)
  return name && !line.includes(name) ? `${line} (${name})` : line
}
