import { redact } from '../redact.js'
import type { Problem, Section } from './types.js'

// What Python (requests/urllib3), npm, curl and Go all read; pip and npm have their own on top.
const STANDARD = ['HTTPS_PROXY', 'HTTP_PROXY', 'ALL_PROXY', 'NO_PROXY']
const TOOL_SPECIFIC = /^(?:PIP_PROXY|npm_config_(?:https_)?proxy|npm_config_noproxy|YARN_(?:HTTPS?_PROXY)|UV_.*PROXY.*)$/i

/** Proxy settings in effect (values redacted), and the ones that cannot work. */
export function checkProxy(env: NodeJS.ProcessEnv): Section {
  const problems: Problem[] = []
  const settings: Record<string, string> = {}
  for (const name of STANDARD) {
    const upper = env[name]
    const lower = env[name.toLowerCase()]
    if (upper !== undefined) settings[name] = redact(upper)
    if (lower !== undefined) settings[name.toLowerCase()] = redact(lower)
    if (upper && lower && upper !== lower) {
      problems.push({ severity: 'warning', area: 'proxy', message: `${name} and ${name.toLowerCase()} differ; tools disagree on which one wins (curl and Python prefer the lower case).`, fix: `Set both to the same value, or unset one: unset ${name.toLowerCase()}` })
    }
  }
  for (const [name, value] of Object.entries(env)) if (TOOL_SPECIFIC.test(name) && value !== undefined) settings[name] = redact(value)
  for (const [name, value] of Object.entries(settings)) {
    if (/no_?proxy/i.test(name) || !value) continue
    const candidate = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`
    try {
      const url = new URL(candidate)
      if (!url.hostname) throw new Error('no host')
    } catch {
      problems.push({ severity: 'broken', area: 'proxy', message: `${name}=${value} is not a proxy URL; every download through it fails.`, fix: `Set it as scheme://host:port, e.g. export ${name}=http://proxy.example:3128, or unset it.` })
    }
  }
  const lines = Object.keys(settings).length
    ? Object.entries(settings).map(([name, value]) => `${name}=${value}`)
    : ['none set (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY, NO_PROXY, their lower-case forms, PIP_PROXY, npm_config_proxy): direct connections']
  return { title: 'Proxy', lines, data: settings, problems }
}
