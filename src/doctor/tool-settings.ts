import { redact } from '../redact.js'
import { TOOLS } from '../tools/index.js'
import type { EnvironmentSetting, ToolAdapter } from '../tools/types.js'
import type { Problem, Section } from './types.js'

/**
 * Environment variables that change what the tools do under resilient: they are kept (they are yours), but some
 * defeat a feature, and people rarely remember setting them (CI images and corporate laptops set many). Each tool's
 * come from its adapter (ToolAdapter.environment); these are read by the runtimes under several tools.
 */
const RUNTIME: readonly EnvironmentSetting[] = [
  { names: ['REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE', 'SSL_CERT_FILE', 'SSL_CERT_DIR'], note: 'a CA bundle read by Python tools and curl: a TLS verification error may come from this bundle, not from the index' },
  { names: ['NODE_EXTRA_CA_CERTS'], note: 'extra CA certificates for Node: every Node start (npm, pnpm, yarn) parses them, ~0.1 s each; resilient started by its launcher or a shim reads them only where it makes a TLS connection' },
]

/** An adapter's variables: those it explains (ToolAdapter.environment), then its timeout and retry knobs (ToolAdapter.knobs). */
function settingsOf(adapter: ToolAdapter): readonly EnvironmentSetting[] {
  const knobs = adapter.knobs?.env.length ? [{ names: adapter.knobs.env, note: `${adapter.name}'s own timeout/retries: kept, and while one is set resilient leaves an index only when ${adapter.name} does` }] : []
  return [...adapter.environment ?? [], ...knobs]
}

/** What `name` means: the runtime's, or the first adapter's that reads it, with every tool that reads it. */
function explain(name: string): { setting: EnvironmentSetting; tools: string[] } | undefined {
  const runtime = RUNTIME.find(entry => entry.names.includes(name))
  if (runtime) return { setting: runtime, tools: [] }
  const readers = (Object.values(TOOLS) as ToolAdapter[]).flatMap(adapter => settingsOf(adapter).filter(entry => entry.names.includes(name)).map(setting => ({ setting, tool: adapter.name })))
  return readers.length ? { setting: readers[0]!.setting, tools: [...new Set(readers.map(reader => reader.tool))] } : undefined
}

export function checkToolSettings(env: NodeJS.ProcessEnv): Section {
  const lines: string[] = []
  const problems: Problem[] = []
  const data: Record<string, string> = {}
  for (const [name, raw] of Object.entries(env).sort(([a], [b]) => a.localeCompare(b))) {
    const known = raw !== undefined && explain(name)
    if (!known) continue
    const value = redact(raw)
    data[name] = value
    lines.push(`${name}=${value}${known.tools.length ? ` (${known.tools.join(', ')})` : ''}: ${known.setting.note}`)
    const problem = known.setting.warn?.(name, raw)
    if (problem) problems.push({ ...problem, severity: 'warning', area: 'environment' })
  }
  if (!lines.length) lines.push('none of the variables that change index choice, timeouts or certificates is set')
  return { title: 'Tool settings from the environment', lines, data, problems }
}
