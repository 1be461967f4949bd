import { describe, expect, it } from 'vitest'
import { MAX_LINE_CHARS, normalizeLines, normalizeOutput } from '../../../src/diagnose/normalize.js'
import { fixture } from './rule-cases.js'

const _ = (input: string, expected: string) => () => expect(normalizeOutput(input)).toBe(expected)

describe('normalizeOutput', () => {
  it('strips ANSI colours', _('\x1b[31mERROR\x1b[0m: boom', 'ERROR: boom'))
  it('keeps what a progress bar drew last', _('  10%\r  50%\r100% done\nnext', '100% done\nnext'))
  it('keeps the error glued after a redraw', _('━━━ 238.0/288.2 MB\rERROR: No space left on device', 'ERROR: No space left on device'))
  it('strips npm prefixes, old and new', _('npm ERR! code E401\nnpm error code E404', 'code E401\ncode E404'))
  it('strips npm debug-log line numbers', _('81 info retry will retry', 'retry will retry'))
  it('strips libmamba prefixes', _('critical libmamba Download error (6)', 'Download error (6)'))
  it('keeps yarn berry codes but drops their decorations', _('➤ YN0018: │ pkg: checksum', 'YN0018: pkg: checksum'))
  it('strips docker buildkit step timestamps', _('#14 0.500   Caused by: dns error', '  Caused by: dns error'))
  it('keeps a line that is only a prefix blank, so a chain with blank lines stays one', _('#12 3.456   ╰─▶ x\n#12 3.456 \n#12 3.456       hint: y', '  ╰─▶ x\n\n      hint: y'))
  it('keeps a Jenkins-stamped blank line blank', _('[12:01:02] a\n[12:01:02] \n[12:01:02] b', 'a\n\nb'))
  it('strips plain buildkit timestamps', _('102.6 ERROR: THESE PACKAGES', 'ERROR: THESE PACKAGES'))
  it('strips GitHub Actions timestamps', _('2024-01-02T03:04:05.1234567Z npm error code E503', 'code E503'))
  it('strips devstack timestamps', _('2018-02-15 22:24:53.107 |   Retrying', '  Retrying'))
  it('strips docker compose service names', _('db-init-1          | error: failed', 'error: failed'))
  it('unescapes a log stored as a JSON string', _('a\\n  Caused by: dns error\\nb', 'a\n  Caused by: dns error\nb'))
  it('leaves a single escaped newline in a real log alone', _('path C:\\new\nnext', 'path C:\\new\nnext'))
  it('names localized errno numbers', _("error(10054, 'Une connexion existante a dû être fermée')", "error(10054, 'Une connexion existante a dû être fermée') (ECONNRESET)"))
  it('drops source code quoted in tracebacks', _('  File "x.py", line 3, in f\n    timeout=timeout\nTimeoutError: boom', '  File "x.py", line 3, in f\nTimeoutError: boom'))
  it('drops poetry code excerpts', _('    → 941│ raise HTTPError(msg)\n  401 Client Error', '  401 Client Error'))
  it('cuts very long lines', () => expect(normalizeLines('x'.repeat(MAX_LINE_CHARS * 2))[0]).toHaveLength(MAX_LINE_CHARS))
})

describe('hard wraps at 80 columns', () => {
  it('joins a URL split by cmd.exe (corpus py-039)', () => {
    expect(normalizeOutput(fixture('pip/py-039-http-auth').output)).toContain('https://mirrors.ustc.edu.cn/pypi/packages/78/b6/')
  })
  it('joins words split mid-way (corpus py-161)', () => {
    expect(normalizeOutput(fixture('pip/py-161-proxy').output)).toContain('Tunnel connection failed: 407 Proxy Authentication Required')
  })
  it('joins under an npm prefix before stripping it (corpus cj-107)', () => {
    expect(normalizeOutput(fixture('npm/cj-107-proxy').output)).toContain('antd-3.2.2.tgz failed, reason: getaddrinfo ENOTFOUND server')
  })
  it('does not join a full-width line with the next record', () => {
    const line = `npm ERR! ${'x'.repeat(71)}`
    expect(normalizeLines(`${line}\nnpm ERR! next`)).toEqual(['x'.repeat(71), 'next'])
  })
})

describe('escape sequences are removed to a fixed point: none can be rebuilt from the pieces', () => {
  it('a nested sequence rebuilds no screen clear or clipboard write in the evidence', () => {
    expect(normalizeOutput('ERROR: x\x1b[\x1b[2J2J\x1b]\x1b]52;c;ZXZpbA==\x07\x0752;c;eA==\x07')).not.toMatch(/\x1b/)
  })
})
