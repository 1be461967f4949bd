import { CREDENTIAL_PATTERNS, maskPrivateKeys, USERINFO_PATTERN } from './secrets/patterns.js'

/**
 * The one place that knows what a secret looks like. Every message, log line, report, dry-run command, CI annotation
 * and stored record goes through it before it leaves the process (docs/security.md). It masks credentials by their
 * position and known formats (src/secrets/patterns.ts), plus values registered for this run (a typed token, a
 * password from a URL); the tool's own output passes through untouched.
 */
export { defuseWorkflowCommands, escapeWorkflowData, printable, stripSequences, type PrintableOptions } from './secrets/printable.js'
export { hasCredentials, splitCredentials, urlWithoutSecrets, type SplitUrl } from './secrets/url.js'

const MASK = '****'
// Variables whose name ends in a credential word hold one (`NPM_TOKEN`, `DB_PASSWORD`, `AWS_CREDENTIALS`). Not
// `AUTH_TOKEN_TTL`, `PASSWORD_MIN_LENGTH`, `AUTH_TYPE`: a word in the middle of a name says nothing.
const SECRET_ENV_NAME = /(?:^|_)(?:TOKEN|PASSWORD|PASSWD|SECRET|API_?KEY|SECRET_ACCESS_KEY|CREDENTIALS?|CREDS?|PAT|_AUTH|_AUTHTOKEN)$/i
// Named like a secret, but hold a socket, a file or a mode.
const NOT_SECRET_ENV = /^(?:SSH_AUTH_SOCK|XAUTHORITY|(?:PIP_|UV_)?KEYRING_PROVIDER|GPG_AGENT_INFO|GOOGLE_APPLICATION_CREDENTIALS|.*_FILE|.*_PATH|.*_DIR)$/i
const SECRET_FLAG_ALONE = /^--?(?:[A-Za-z0-9]{1,24}-){0,3}(?:password|passwd|token|secret)$/i

let extraSecrets: string[] = []

/** Values that are secret in this run (a typed token, a password from a URL): masked wherever they appear. */
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

/** A value that can be a credential: long enough, not a number, a path or a plain word. */
function looksLikeCredential(value: string): boolean {
  return value.length >= 8 && !/^\d+$/.test(value) && !/^(?:\/|~\/|[A-Za-z]:\\)/.test(value) && !/^[A-Za-z]{1,20}$/.test(value)
}

/** Registers the values of environment variables that hold credentials (`NPM_TOKEN=<token>`), not paths or words. */
export function registerSecretEnv(env: NodeJS.ProcessEnv): string[] {
  return registerSecrets(Object.entries(env).filter(([name, value]) => value && isSecretEnvName(name) && looksLikeCredential(value)).map(([, value]) => value))
}

/** The secret parts of a text (a URL's password, a token), for registering and masking them in CI. */
export function findSecrets(text: string): string[] {
  const found = new Set<string>()
  for (const pattern of CREDENTIAL_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const secret = match[2]!
      found.add(secret)
      // `user:password`: the password alone is the part that may show up elsewhere.
      const colon = secret.indexOf(':')
      if (pattern === USERINFO_PATTERN && colon >= 0) {
        try {
          found.add(decodeURIComponent(secret.slice(colon + 1)))
        } catch {
          found.add(secret.slice(colon + 1))
        }
      }
    }
  }
  // A plain word caught by a loose pattern (`?key=python`) would mask that word everywhere once registered.
  return [...found].filter(secret => secret.length >= 6 && !/^[A-Za-z]{1,15}$/.test(secret))
}

export function redact(text: string): string {
  let result = text
  for (const secret of extraSecrets) if (result.includes(secret)) result = result.split(secret).join(MASK)
  for (const pattern of CREDENTIAL_PATTERNS) result = result.replace(pattern, (_, context: string) => `${context}${MASK}`)
  return maskPrivateKeys(result, MASK)
}

/** An argv with secrets masked, including the value after a separate `--password`/`--token` flag. */
export function redactArgv(argv: readonly string[]): string[] {
  return argv.map((arg, index) => index > 0 && SECRET_FLAG_ALONE.test(argv[index - 1]!) ? MASK : redact(arg))
}

/** Redacts every string inside a JSON-like value (reports, logs); values under credential-named keys are masked whole. */
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
