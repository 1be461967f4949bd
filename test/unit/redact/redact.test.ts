import { afterEach, describe, expect, it } from 'vitest'
import { findSecrets, forgetSecrets, isSecretEnvName, knownSecrets, redact, redactArgv, redactDeep, registerSecretEnv, registerSecrets } from '../../../src/redact.js'

afterEach(() => forgetSecrets())

const _ = (input: string, expected: string) => () => expect(redact(input)).toBe(expected)

describe('redact: URLs', () => {
  it('masks user:password@', _('Looking in indexes: https://alice:s3cr3t@pypi.corp.example/simple', 'Looking in indexes: https://****@pypi.corp.example/simple'))
  it('masks a token used as the user', _('git+https://ghtoken123@github.com/org/repo', 'git+https://****@github.com/org/repo'))
  it('masks an empty-password user', _('https://deploytok:@packagecloud.io/x', 'https://****@packagecloud.io/x'))
  it('keeps a URL without credentials', _('https://pypi.org/simple/torch/', 'https://pypi.org/simple/torch/'))
  it('keeps an email address that is not in a URL', _('mail me at alice@example.com', 'mail me at alice@example.com'))
  it('masks a token query parameter', _('GET https://host/simple/?token=abc123&x=1', 'GET https://host/simple/?token=****&x=1'))
  it('masks S3 presigned signatures', _('https://b.s3.amazonaws.com/f.whl?X-Amz-Signature=deadbeef01&X-Amz-Credential=AK/2024', 'https://b.s3.amazonaws.com/f.whl?X-Amz-Signature=****&X-Amz-Credential=****'))
  it('masks a Cloudsmith path token', _('https://dl.cloudsmith.io/AbCdEf123456/org/repo/python/simple/', 'https://dl.cloudsmith.io/****/org/repo/python/simple/'))
  it('keeps a public Cloudsmith path', _('https://dl.cloudsmith.io/public/org/repo/', 'https://dl.cloudsmith.io/public/org/repo/'))
  it('masks a Gemfury path token', _('https://pypi.fury.io/Tok3nValue99/acme/', 'https://pypi.fury.io/****/acme/'))
})

describe('redact: a query parameter is a credential by the shape of its name', () => {
  // Any name containing token, key, secret, password, passwd, auth, sig, signature or credential, any case, - or _.
  it.each([
    'api_token', 'private_token', 'auth_token', 'access-token', 'access_token', 'X-Auth', 'x_auth', 'Token', 'TOKEN',
    'apikey', 'api-key', 'API_KEY', 'key', 'sharedKey', 'secret', 'client_secret', 'Client-Secret', 'password', 'db_password',
    'PASSWD', 'passwd', 'auth', 'x-auth-key', 'sig', 'sig_v2', 'signature', 'X-Amz-Signature', 'Signature', 'credential',
    'X-Amz-Credential', 'credentials', 'x-goog-credential', 'sas.sig', 'jwt~token',
  ])('?%s=… is masked, first and later in the query', name => {
    expect(redact(`https://host/simple/?${name}=Zq9-value_42&x=1`)).toBe(`https://host/simple/?${name}=****&x=1`)
    expect(redact(`https://host/simple/?x=1&${name}=Zq9-value_42`)).toBe(`https://host/simple/?x=1&${name}=****`)
    expect(findSecrets(`https://host/simple/?${name}=Zq9-value_42`)).toEqual(['Zq9-value_42'])
  })

  it.each(['page', 'version', 'name', 'format', 'sort', 'q'])('?%s=… stays', name => {
    expect(redact(`https://host/simple/?${name}=Zq9-value_42`)).toBe(`https://host/simple/?${name}=Zq9-value_42`)
  })
})

describe('redact: headers and config lines', () => {
  it('masks a bearer Authorization header', _('Authorization: Bearer abcdefgh12345', 'Authorization: Bearer ****'))
  it('masks a basic Authorization header', _("'Authorization': 'Basic YWxpY2U6czNjcjN0'", "'Authorization': 'Basic ****'"))
  it('masks a bare Authorization value', _('authorization=abcdef123', 'authorization=****'))
  it('masks a Proxy-Authorization header', _('Proxy-Authorization: Basic Zm9vOmJhcg==', 'Proxy-Authorization: Basic ****'))
  it('masks a lone bearer token', _('sending Bearer eyXabc.def-ghi_123', 'sending Bearer ****'))
  it('masks an npm _authToken line', _('//registry.npmjs.org/:_authToken=abcd-1234-efgh', '//registry.npmjs.org/:_authToken=****'))
  it('masks npm _auth and _password', _('_auth = dXNlcjpwYXNz\n_password="cGFzcw=="', '_auth = ****\n_password="****"'))
  it('masks npm_config__authToken in env form', _('npm_config__authToken=abc123xyz', 'npm_config__authToken=****'))
  it('keeps a diagnosis label that merely ends in _auth', _('http_auth: pypi.tuna.tsinghua.edu.cn refused access', 'http_auth: pypi.tuna.tsinghua.edu.cn refused access'))
  it('masks GitLab PRIVATE-TOKEN headers', _('PRIVATE-TOKEN: zzzzyyyyxxxx', 'PRIVATE-TOKEN: ****'))
  it('masks Artifactory API key headers', _('X-JFrog-Art-Api: AKCpabc123', 'X-JFrog-Art-Api: ****'))
  it('masks NAME=value for secret names', _('env: NPM_TOKEN=abc123 MY_API_KEY=zzz9 PIP_TIMEOUT=6', 'env: NPM_TOKEN=**** MY_API_KEY=**** PIP_TIMEOUT=6'))
  it('masks JSON secret fields', _('{"password": "hunter22", "user": "bob"}', '{"password": "****", "user": "bob"}'))
  it('masks --password and --token flag values', _('twine upload --password hunter22 --token=abc123 dist/*', 'twine upload --password **** --token=**** dist/*'))
  it('keeps --token-file paths', _('tool --token-file /run/secrets/t', 'tool --token-file /run/secrets/t'))
  it('masks a private key block', _('x\n-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\ny', 'x\n****\ny'))
})

describe('redact: token shapes', () => {
  const shapes: Record<string, string> = {
    github: 'ghp_0123456789abcdefghijABCDEFGHIJ012345',
    'github fine-grained': 'github_pat_11ABCDEFG0123456789_abcdefghijklmnop',
    'github app': 'ghs_0123456789abcdefghijABCDEFGHIJ',
    gitlab: 'glpat-abcdefghij0123456789',
    'gitlab deploy': 'gldt-abcdefghij0123456789',
    pypi: 'pypi-AgEIcHlwaS5vcmcCJDAwMDAwMDAw',
    npm: 'npm_abcdefghijklmnopqrstuvwxyz0123456789',
    openai: 'sk-proj-abcdefghijklmnop0123',
    huggingface: 'hf_abcdefghijklmnopqrstuvwxyzABCDEFGH',
    slack: 'xoxb-1234567890-abcdefghij',
    aws: 'AKIAIOSFODNN7EXAMPLE',
    google: 'AIzaSyA-abcdefghijklmnopqrstuvwxyz01234',
    jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpM',
  }
  for (const [name, token] of Object.entries(shapes)) {
    it(`masks a ${name} token`, () => expect(redact(`token is ${token}.`)).toBe('token is ****.'))
  }
  it('keeps ordinary words that start like a token', _('sk-learn scikit-learn npm_config pypi-simple', 'sk-learn scikit-learn npm_config pypi-simple'))
})

describe('registered secrets', () => {
  it('masks an env value named like a secret anywhere', () => {
    registerSecretEnv({ DEPLOY_TOKEN: 'plain-value-42', HOME: '/home/me' })
    expect(redact('the value plain-value-42 appeared')).toBe('the value **** appeared')
    expect(redact('/home/me')).toBe('/home/me')
  })
  it('ignores short values, paths and socket variables', () => {
    expect(registerSecretEnv({ MY_KEY: 'abc', SSH_AUTH_SOCK: '/tmp/ssh-x/agent.1', SERVICE_KEY: '/etc/keys/k.pem', PIP_KEYRING_PROVIDER: 'subprocess' })).toEqual([])
  })
  it('returns only new values and lists them for masking', () => {
    expect(registerSecrets(['secret-one', 'secret-one', 'secret-two'])).toEqual(['secret-one', 'secret-two'])
    expect(knownSecrets()).toContain('secret-two')
  })
  it('masks the longest value first', () => {
    registerSecrets(['abcdef', 'abcdefghij'])
    expect(redact('abcdefghij abcdef')).toBe('**** ****')
  })
})

describe('names, argv and deep values', () => {
  it.each(['GITHUB_TOKEN', 'NPM_AUTH_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'DB_PASSWORD', 'API_KEY', 'npm_config__auth', 'GITLAB_PAT', 'AZURE_CREDENTIALS', 'REGISTRY_CREDS'])('%s is secret', name => expect(isSecretEnvName(name)).toBe(true))
  // A word in a name says nothing about the value (AUTH_TYPE=kerberos is not a secret).
  it.each(['PATH', 'HOME', 'PIP_KEYRING_PROVIDER', 'KEYBOARD', 'MONKEY', 'AUTHOR', 'SSH_AUTH_SOCK', 'AUTH_TYPE', 'AUTH_TOKEN_TTL', 'PASSWORD_MIN_LENGTH', 'KEY', 'NPM_TOKEN_FILE'])('%s is not secret', name => expect(isSecretEnvName(name)).toBe(false))
  it('masks the value after a separate --password flag', () => expect(redactArgv(['twine', 'upload', '--password', 'hunter22', 'dist/x'])).toEqual(['twine', 'upload', '--password', '****', 'dist/x']))
  it('redacts reports deeply', () => expect(redactDeep({ attempts: [{ command: ['pip', '-i', 'https://u:p4ssword@h/simple'] }], NPM_TOKEN: 'x', n: 3 }))
    .toEqual({ attempts: [{ command: ['pip', '-i', 'https://****@h/simple'] }], NPM_TOKEN: '****', n: 3 }))
  it('finds the password of a URL on its own', () => expect(findSecrets('https://alice:s%40cret99@h/')).toEqual(expect.arrayContaining(['alice:s%40cret99', 's@cret99'])))
  it('does not offer plain words for masking everywhere', () => expect(findSecrets('https://host/x?key=python&token=abc123xyz')).toEqual(['abc123xyz']))
  it('finds token shapes', () => expect(findSecrets('use ghp_0123456789abcdefghijABCDEFGHIJ012345 now')).toEqual(['ghp_0123456789abcdefghijABCDEFGHIJ012345']))
})
