/**
 * The one place that knows what a secret looks like. Every message, log line, report, dry-run command, CI annotation
 * and the child's stderr go through redact() before they leave the process (docs/ci.md, "Secrets").
 */
const MASK = '****'

// Query parameters and headers whose value is a credential (Artifactory, GitLab, S3 presigned URLs, Azure SAS).
const SECRET_PARAM = 'token|access_token|auth|api[_-]?key|apikey|key|password|passwd|secret|sig|signature|x-amz-signature|x-amz-credential|x-amz-security-token'
const SECRET_HEADER = 'x-jfrog-art-api|private-token|job-token|deploy-token|x-api-key|api-key|x-auth-token'
const SECRET_FLAG = 'password|passwd|token|auth-token|access-token|api-key|api-token|secret|client-secret'

/** Each pattern matches the secret itself (lookbehinds keep the context visible: `https://****@host`). */
const SECRET_PATTERNS: RegExp[] = [
  // user:password@ and token@ in URLs of any scheme
  /(?<=[a-z][a-z0-9+.-]*:\/\/)[^\s/@:'"]+(?::[^\s/@'"]*)?(?=@)/gi,
  new RegExp(`(?<=[?&;](?:${SECRET_PARAM})=)[^&\\s'"#;]+`, 'gi'),
  // Registries that carry the token as the first path segment (Cloudsmith, Gemfury).
  /(?<=\/\/(?:dl\.cloudsmith\.io|(?:pypi|npm|npm-proxy|repo)\.fury\.io)\/)(?!public\/|basic\/)[A-Za-z0-9_-]{8,}(?=\/)/gi,
  // Authorization headers (Bearer, Basic, token, anything) and bearer tokens alone
  /(?<=\b(?:Proxy-)?Authorization["']?\s*[:=]\s*["']?(?:(?:Bearer|Basic|token|Digest|Negotiate)\s+)?)(?!(?:Bearer|Basic|token|Digest|Negotiate)\s)[^\s'",]+/gi,
  /(?<=\bBearer\s+)[A-Za-z0-9._~+/=-]{8,}/g,
  new RegExp(`(?<=\\b(?:${SECRET_HEADER})["']?\\s*:\\s*["']?)[^\\s'",]+`, 'gi'),
  // npm: //registry/:_authToken=..., _auth=..., _password=... (also npm_config__authToken=...)
  // (preceded by `:`, `_`, a quote, a space or the line start, so `http_auth: host` is not a secret)
  /(?<=(?:^|[\s:"'_])_(?:authToken|auth|password)["']?\s*[=:]\s*["']?)[^\s'",]+/gim,
  // NAME=value and "name": "value" where the name says it is secret
  /(?<=\b[A-Za-z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|APIKEY|API_KEY|ACCESS_KEY|PRIVATE_KEY)[A-Za-z0-9_]*=)[^\s'"&]+/gi,
  /(?<="[A-Za-z0-9_-]*(?:token|secret|password|passwd|apikey|api_key|api-key)"\s*:\s*")[^"]+/gi,
  // --password x, --token=x, -p x is too ambiguous to mask
  new RegExp(`(?<=(?:^|\\s)--(?:${SECRET_FLAG})(?:=|\\s+)['"]?)[^\\s'"]+`, 'gi'),
  // Known token shapes
  /\bghp_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bgh[ousr]_[A-Za-z0-9]{20,}/g,
  /\bgl(?:pat|dt|ptt|rt|oas|cbt)-[A-Za-z0-9_-]{16,}/g,
  /\bpypi-[A-Za-z0-9_-]{16,}/g,
  /\bnpm_[A-Za-z0-9]{30,}/g,
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  /\bhf_[A-Za-z0-9]{30,}/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
  /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
]

/** Environment variable names whose values are secret: *TOKEN*, *SECRET*, *PASSWORD*, *KEY* (as a word), *AUTH*. */
const SECRET_ENV_NAME = /TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|APIKEY|(?:^|_)KEY(?:$|_)|(?:^|_)AUTH(?:$|_)|_PAT$/i
// Named like a secret, but hold a socket, a file or a mode, and would mask ordinary paths everywhere.
const NOT_SECRET_ENV = /^(?:SSH_AUTH_SOCK|XAUTHORITY|(?:PIP_|UV_)?KEYRING_PROVIDER|GPG_AGENT_INFO|GOOGLE_APPLICATION_CREDENTIALS|.*_KEY_?FILE|.*_TOKEN_?FILE)$/i
const SECRET_FLAG_ALONE = new RegExp(`^--?(?:${SECRET_FLAG})$`, 'i')

let extraSecrets: string[] = []

/** Values that are secret in this run (env vars named like *TOKEN*, passwords in URLs): masked wherever they appear. */
export function registerSecrets(values: Iterable<string | undefined>): string[] {
  const added: string[] = []
  for (const value of values) {
    if (!value || value.length < 6 || extraSecrets.includes(value)) continue
    extraSecrets.push(value)
    added.push(value)
  }
  extraSecrets.sort((a, b) => b.length - a.length)
  return added
}

/** Every value registered so far: the CI reporter masks them (`::add-mask::`) before any output. */
export function knownSecrets(): readonly string[] {
  return extraSecrets
}

/** For tests: forget the registered values. */
export function forgetSecrets(): void {
  extraSecrets = []
}

export function isSecretEnvName(name: string): boolean {
  return SECRET_ENV_NAME.test(name) && !NOT_SECRET_ENV.test(name)
}

/** Registers the values of environment variables whose names say they are secret (not paths). */
export function registerSecretEnv(env: NodeJS.ProcessEnv): string[] {
  return registerSecrets(Object.entries(env)
    .filter(([name, value]) => isSecretEnvName(name) && value && !/^(?:\/|~\/|[A-Za-z]:\\)/.test(value))
    .map(([, value]) => value))
}

/** The secret parts of a text (a URL's password, a token), for registering and masking them in CI. */
export function findSecrets(text: string): string[] {
  const found = new Set<string>()
  for (const pattern of SECRET_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      found.add(match[0])
      // `user:password`: the password alone is the part that may show up elsewhere.
      const colon = match[0].indexOf(':')
      if (pattern === SECRET_PATTERNS[0] && colon >= 0) found.add(decodeURIComponent(match[0].slice(colon + 1)))
    }
  }
  // A plain word caught by a loose pattern (`?key=python`) would mask that word everywhere once registered.
  return [...found].filter(secret => secret.length >= 6 && !/^[A-Za-z]{1,15}$/.test(secret))
}

export function redact(text: string): string {
  let result = text
  for (const secret of extraSecrets) if (result.includes(secret)) result = result.split(secret).join(MASK)
  for (const pattern of SECRET_PATTERNS) result = result.replace(pattern, MASK)
  return result
}

/** An argv with secrets masked, including the value after a separate `--password`/`--token` flag. */
export function redactArgv(argv: readonly string[]): string[] {
  return argv.map((arg, index) => index > 0 && SECRET_FLAG_ALONE.test(argv[index - 1]!) ? MASK : redact(arg))
}

/** Redacts every string inside a JSON-like value (reports, logs); values under secret-named keys are masked whole. */
export function redactDeep<T>(value: T): T {
  if (typeof value === 'string') return redact(value) as T
  if (Array.isArray(value)) {
    return (value.every(item => typeof item === 'string') ? redactArgv(value as string[]) : value.map(redactDeep)) as T
  }
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isSecretEnvName(k) && typeof v === 'string' ? MASK : redactDeep(v)])) as T
  }
  return value
}
