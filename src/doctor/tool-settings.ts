import { redact } from '../redact.js'
import type { Problem, Section } from './types.js'

/**
 * Environment variables that change what the tools do under resilient: they are kept (they are yours), but some
 * defeat a feature, and people rarely remember setting them (CI images and corporate laptops set many).
 */
const KNOWN: { pattern: RegExp; note: string; problem?: (name: string, value: string) => Omit<Problem, 'area'> | undefined }[] = [
  {
    pattern: /^PIP_(DEFAULT_)?TIMEOUT$|^PIP_RETRIES$/,
    note: "pip's own timeout/retries: kept, so resilient does not shorten them",
    problem: (name, value) => Number(value) > 30 || name === 'PIP_RETRIES' && Number(value) > 5
      ? { severity: 'warning', message: `${name}=${value}: a dead index costs pip up to ${name === 'PIP_RETRIES' ? `${value} retries` : `${value} s per try`} before resilient can switch to a mirror.`, fix: `unset ${name} (resilient then uses 6 s and no pip retry, and retries across mirrors itself), or accept the wait.` }
      : undefined,
  },
  { pattern: /^PIP_(INDEX_URL|PYPI_URL|NO_INDEX)$/, note: 'an index choice for pip: one that is not public and not in resilient\'s config is never replaced by a mirror' },
  { pattern: /^PIP_(EXTRA_INDEX_URL|FIND_LINKS)$/, note: 'extra package sources for pip, on every command: kept as they are (mirrors replace only the main index)' },
  { pattern: /^PIP_CERT$/, note: "pip's CA bundle, as if --cert were on every pip command" },
  { pattern: /^(REQUESTS_CA_BUNDLE|CURL_CA_BUNDLE|SSL_CERT_FILE|SSL_CERT_DIR)$/, note: 'a CA bundle read by Python tools and curl: a TLS verification error may come from this bundle, not from the index' },
  { pattern: /^NODE_EXTRA_CA_CERTS$/, note: 'extra CA certificates for Node: every Node start (npm, resilient itself) parses them, ~0.1 s each' },
  { pattern: /^(npm_config_registry|NPM_CONFIG_REGISTRY|YARN_NPM_REGISTRY_SERVER|YARN_REGISTRY|BUN_CONFIG_REGISTRY|pnpm_config_registry)$/, note: 'a registry choice for the npm family' },
  { pattern: /^(UV_(DEFAULT_)?INDEX(_URL)?|UV_EXTRA_INDEX_URL|UV_HTTP_TIMEOUT|UV_HTTP_RETRIES|CONDA_CHANNELS|CONDA_CHANNEL_ALIAS|GOPROXY|GOPRIVATE|GOFLAGS|PDM_PYPI_URL)$/, note: 'an index or network setting for uv, conda, go or pdm' },
]

export function checkToolSettings(env: NodeJS.ProcessEnv): Section {
  const lines: string[] = []
  const problems: Problem[] = []
  const data: Record<string, string> = {}
  for (const [name, raw] of Object.entries(env).sort(([a], [b]) => a.localeCompare(b))) {
    const known = raw !== undefined && KNOWN.find(entry => entry.pattern.test(name))
    if (!known) continue
    const value = redact(raw)
    data[name] = value
    lines.push(`${name}=${value}: ${known.note}`)
    const problem = known.problem?.(name, raw)
    if (problem) problems.push({ ...problem, area: 'environment' })
  }
  if (!lines.length) lines.push('none of the variables that change index choice, timeouts or certificates is set')
  return { title: 'Tool settings from the environment', lines, data, problems }
}
