import { afterEach, describe, expect, it } from 'vitest'
import { forgetSecrets, hasCredentials, printable, redact, registerSecretEnv, splitCredentials, urlWithoutSecrets } from '../../../src/redact.js'

afterEach(() => forgetSecrets())
const _ = (input: string, expected: string) => () => expect(redact(input)).toBe(expected)

// Credentials are masked by position and known formats; words are not.
describe('credentials by position', () => {
  it('a password containing a quote', _("https://alice:it's-s3cret@pypi.corp.example/simple", 'https://****@pypi.corp.example/simple'))
  it('a password containing a raw @ leaks no tail', _('https://alice:p@ss@w0rd@pypi.corp.example/simple', 'https://****@pypi.corp.example/simple'))
  it('an anaconda.org token channel', _('https://conda.anaconda.org/t/ab-12345678-cdef/privchan/noarch', 'https://conda.anaconda.org/t/****/privchan/noarch'))
  it('a token channel on a mirror host', _('mirrors.tuna.tsinghua.edu.cn/anaconda/cloud/t/xy-98765432/privchan', 'mirrors.tuna.tsinghua.edu.cn/anaconda/cloud/t/****/privchan'))
  it('cargo --config registries.<name>.token', _(`cargo --config 'registries.corp.token="cio_abcdef123456"' build`, `cargo --config 'registries.corp.token="****"' build`))
  it('CARGO_REGISTRIES_<NAME>_TOKEN', _('CARGO_REGISTRIES_CORP_TOKEN=cio_abcdef123456 cargo build', 'CARGO_REGISTRIES_CORP_TOKEN=**** cargo build'))
  it('a --db-password flag of a script', _('python app.py --db-password hunter2 --port 8080', 'python app.py --db-password **** --port 8080'))
  it('yarn berry npmAuthToken', _('npmAuthToken: "sekrit-token-123"', 'npmAuthToken: "****"'))
})

describe('words are not credentials', () => {
  it.each(['PASSWORD_MIN_LENGTH=12', 'AUTH_TOKEN_TTL=3600', 'AUTH_TYPE=kerberos', 'MAX_TOKEN=4096'])('%s stays', text => expect(redact(text)).toBe(text))
  it('a variable named like a secret registers no plain word', () => {
    registerSecretEnv({ AUTH_TYPE: 'kerberos', SOME_SECRET: 'kerberos', DB_PASSWORD: 'hunter2-long-one' })
    expect(redact('using kerberos auth')).toBe('using kerberos auth')
    expect(redact('it printed hunter2-long-one')).toBe('it printed ****')
  })
  it('masks a private key only between BEGIN and END', () => {
    const text = 'before\n-----BEGIN PRIVATE KEY-----\nMIIEvQ\n-----END PRIVATE KEY-----\nafter\nERROR: real error'
    expect(redact(text)).toBe('before\n****\nafter\nERROR: real error')
  })
  it('a BEGIN line without END swallows nothing after it', () => {
    const text = '-----BEGIN PRIVATE KEY-----\nERROR: Could not find a version that satisfies the requirement x'
    expect(redact(text)).toBe(text)
  })
})

describe('linear time: hostile input cannot stall redaction', () => {
  const hostile = [
    `Authorization:${' '.repeat(1_000_000)}x`,
    `https://${'a'.repeat(1_000_000)}`,
    `${'://'.repeat(300_000)}`,
    `--${'a-'.repeat(400_000)}password`,
    `${'eyJ'.repeat(300_000)}`,
    `-----BEGIN PRIVATE KEY-----${'x'.repeat(1_000_000)}`,
    `${'A_'.repeat(400_000)}TOKEN`,
    `Bearer ${'\t'.repeat(1_000_000)}`,
  ]
  it.each(hostile.map((text, index) => [index, text] as const))('hostile line %i of 1 MB in well under a second per MB', (_index, text) => {
    // A ratio against a plain scan of the same text, with a wide margin: quadratic patterns take minutes here.
    const started = performance.now()
    redact(text)
    const elapsed = performance.now() - started
    expect(elapsed).toBeLessThan(2_000)
  }, 10_000)
})

describe('URLs kept or stored without secrets', () => {
  it('keeps scheme, host and path only', () => expect(urlWithoutSecrets('https://u:p@pypi.corp.example:8443/simple/?api_token=x#f')).toBe('https://pypi.corp.example:8443/simple/'))
  it('masks a token channel segment', () => expect(urlWithoutSecrets('https://conda.anaconda.org/t/ab-12345678/privchan')).toBe('https://conda.anaconda.org/t/****/privchan'))
  it('masks a gemfury path token', () => expect(urlWithoutSecrets('https://pypi.fury.io/Tok3nValue99/acme/')).toBe('https://pypi.fury.io/****/acme/'))
  it('splits credentials from a URL', () => expect(splitCredentials('https://corp%40x:p%40ss@h.example/simple')).toEqual({ url: 'https://h.example/simple', username: 'corp@x', password: 'p@ss' }))
  it('tells which URLs carry credentials', () => {
    expect(hasCredentials('https://conda.anaconda.org/t/ab-12345678/privchan')).toBe(true)
    expect(hasCredentials('https://u:p@h.example/')).toBe(true)
    expect(hasCredentials('https://conda.anaconda.org/conda-forge')).toBe(false)
  })
})

describe('printable: escape sequences to a fixed point, control bytes shown', () => {
  it('a nested sequence does not rebuild itself', () => expect(printable('a\x1b[\x1b[2J2Jb')).toBe('a2Jb'))
  it('an OSC 52 clipboard write is removed', () => expect(printable('x\x1b]52;c;ZXZpbA==\x07y')).toBe('xy'))
  it('ESC c (terminal reset) is removed', () => expect(printable('x\x1bcy')).toBe('xy'))
  it('a newline in an argument stays on the line', () => expect(printable('foo\n::error title=x::pwned')).toBe('foo\\n::error title=x::pwned'))
  it('a lone ESC and other controls are shown escaped', () => expect(printable('a\x1b\x07\rb')).toBe('a\\x1b\\x07\\x0db'))
  it('keeps colour when asked, and nothing else', () => expect(printable('\x1b[31mred\x1b[0m\x1b]0;title\x07', { keepColor: true })).toBe('\x1b[31mred\x1b[0m'))
})

describe('printed commands', () => {
  it('show control bytes of arguments escaped, on one line', async () => {
    const { formatCommand } = await import('../../../src/tools/argv/format-command.js')
    const printed = formatCommand({ argv: ['pip', 'install', 'foo\n::error title=x::pwned', '\x1b]52;c;ZXZpbA==\x07'], env: {} })
    expect(printed).toBe("pip install 'foo\\n::error title=x::pwned' '\\x1b]52;c;ZXZpbA==\\x07'")
    expect(printed).not.toMatch(/[\x00-\x1f]/)
  })
  it('a GitHub Actions line escapes %, CR and LF', async () => {
    const { escapeWorkflowData } = await import('../../../src/redact.js')
    expect(escapeWorkflowData('100% done\r\n::error::x')).toBe('100%25 done%0D%0A::error::x')
  })
  // The runner trims a line's leading white space (.NET's Char.IsWhiteSpace, U+0085 included) before looking for `::`.
  it.each([
    ['    ::error title=x::pwned', '    %3A:error title=x::pwned'],
    ['::warning::x', '%3A:warning::x'],
    ['\t \u00a0\u2003\u0085::set-output name=a::b', '\t \u00a0\u2003\u0085%3A:set-output name=a::b'],
    ['evidence\n  ::add-mask::x\rnext\r::stop-commands::t', 'evidence\n  %3A:add-mask::x\rnext\r%3A:stop-commands::t'],
    ['see ##[error]old form', 'see ##%5Berror]old form'],
    ['a :: in the middle stays', 'a :: in the middle stays'],
    ['  : one colon stays', '  : one colon stays'],
  ])('no line resilient prints can start a workflow command: %j', async (line, expected) => {
    const { defuseWorkflowCommands, escapeWorkflowData } = await import('../../../src/redact.js')
    expect(defuseWorkflowCommands(line)).toBe(expected)
    for (const printed of [defuseWorkflowCommands(line), escapeWorkflowData(line)]) {
      for (const runnerLine of printed.split(/\r\n|\r|\n/)) expect(runnerLine.replace(/^[\s\u0085]+/, '')).not.toMatch(/^::/)
      expect(printed).not.toContain('##[')
    }
  })
  it('defusing is linear in the length of a hostile line', async () => {
    const { defuseWorkflowCommands } = await import('../../../src/redact.js')
    const started = performance.now()
    defuseWorkflowCommands(`${' '.repeat(1_000_000)}:x`)
    defuseWorkflowCommands('\n :'.repeat(300_000))
    expect(performance.now() - started).toBeLessThan(2000)
  })
})
