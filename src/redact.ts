/**
 * The one place that knows what a secret looks like. Every message, log line, report and dry-run command goes
 * through redact() before it leaves the process.
 */
const SECRET_PATTERNS: RegExp[] = [
  // user:password@ and token@ in URLs of any scheme
  /(?<=[a-z][a-z0-9+.-]*:\/\/)[^\s/@:'"]+(?::[^\s/@'"]*)?(?=@)/gi,
  // Authorization headers and bearer tokens
  /(?<=\bAuthorization["']?\s*[:=]\s*["']?(?:Bearer|Basic|token)\s+)[^\s'",]+/gi,
  /(?<=\bBearer\s+)[A-Za-z0-9._~+/=-]{8,}/g,
  // npm: //registry/:_authToken=..., _auth=..., _password=...
  /(?<=:?_(?:authToken|auth|password)\s*=\s*)[^\s'"]+/gi,
  // Known token shapes
  /\bghp_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bgh[ousr]_[A-Za-z0-9]{20,}/g,
  /\bglpat-[A-Za-z0-9_-]{16,}/g,
  /\bpypi-[A-Za-z0-9_-]{16,}/g,
  /\bnpm_[A-Za-z0-9]{30,}/g,
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g,
]

const SECRET_ENV_NAME = /TOKEN|SECRET|PASSWORD|PASSWD|KEY|AUTH|CREDENTIAL/i
const MASK = '****'

let extraSecrets: string[] = []

/** Values that are secret in this run (env vars named like *TOKEN*, prompted tokens): masked wherever they appear. */
export function registerSecrets(values: Iterable<string | undefined>): void {
  for (const value of values) if (value && value.length >= 6 && !extraSecrets.includes(value)) extraSecrets.push(value)
  extraSecrets.sort((a, b) => b.length - a.length)
}

/** Registers the values of environment variables whose names say they are secret. */
export function registerSecretEnv(env: NodeJS.ProcessEnv): void {
  registerSecrets(Object.entries(env).filter(([name]) => SECRET_ENV_NAME.test(name) && !/^(?:SSH_AUTH_SOCK|XAUTHORITY|KEYRING_PROVIDER)$/.test(name)).map(([, v]) => v))
}

export function isSecretEnvName(name: string): boolean {
  return SECRET_ENV_NAME.test(name)
}

export function redact(text: string): string {
  let result = text
  for (const secret of extraSecrets) result = result.split(secret).join(MASK)
  for (const pattern of SECRET_PATTERNS) result = result.replace(pattern, MASK)
  return result
}

/** Redacts every string inside a JSON-like value (reports, logs). */
export function redactDeep<T>(value: T): T {
  if (typeof value === 'string') return redact(value) as T
  if (Array.isArray(value)) return value.map(redactDeep) as T
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isSecretEnvName(k) && typeof v === 'string' ? MASK : redactDeep(v)])) as T
  }
  return value
}
