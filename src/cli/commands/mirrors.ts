import { loadConfig } from '../../config/load.js'
import { ResilientError, EXIT } from '../../errors.js'
import { effectiveMirrors, type ListedMirror } from '../../config/effective-mirrors.js'
import { parseEcosystem } from './ecosystem-of.js'
import { ECOSYSTEMS } from '../../mirrors/index.js'
import { PROBE_DESCRIPTIONS } from '../../mirrors/probe-targets.js'
import { probeMirrors, rankResults, type ProbeResult } from '../../mirrors/speed-test.js'
import type { Ecosystem } from '../../mirrors/types.js'
import { redact, redactDeep } from '../../redact.js'
import { breakerVerdict, describeHealth } from '../../state/breaker.js'
import { addOutcomes, healthOf } from '../../state/health.js'
import { currentNetwork } from '../../state/network.js'
import { stateFile } from '../../paths.js'
import { readState, updateState } from '../../state/store.js'
import { configFlags, type RunFlags } from '../../run/flags.js'

const warn = (message: string) => process.stderr.write(redact(`resilient: ${message}\n`))
const print = (lines: string[]) => process.stdout.write(`${redact(lines.join('\n'))}\n`)

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map(row => row[column]!.length)))
  return rows.map(row => `  ${row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ')}`.trimEnd())
}

async function setup(ecosystem: string | undefined, globals: RunFlags) {
  const loaded = await loadConfig({ cwd: process.cwd(), env: process.env, flags: configFlags(globals) })
  const ecosystems: Ecosystem[] = ecosystem ? [parseEcosystem(ecosystem)] : ECOSYSTEMS
  return { loaded, ecosystems, network: currentNetwork(process.env), file: stateFile(process.env) }
}

/** `resilient mirrors list [ecosystem] [--json]`: the index and mirrors in the order tried, with remembered health. */
export async function runMirrorsList(ecosystem: string | undefined, options: { json?: boolean }, globals: RunFlags): Promise<number> {
  const { loaded, ecosystems, network, file } = await setup(ecosystem, globals)
  const state = await readState(file, warn).catch(error => (warn(`mirror health unavailable: ${(error as Error).message}`), undefined))
  const now = Date.now()
  const { breaker } = loaded.config
  const sections = ecosystems.map(name => {
    const mirrors = effectiveMirrors(name, loaded.config).filter(mirror => loaded.config.mirrors || mirror.role === 'index')
    const health = (mirror: ListedMirror) => (state ? healthOf(state, network, mirror.url) : undefined)
    const inUse = mirrors.find(mirror => mirror.role !== 'unused' && breakerVerdict(health(mirror), now, breaker).state !== 'open')
    return { ecosystem: name, mirrors: mirrors.map(mirror => ({ ...mirror, inUse: mirror === inUse,
      breaker: breakerVerdict(health(mirror), now, breaker).state, health: health(mirror) ?? null, summary: describeHealth(health(mirror), now, breaker) })) }
  })
  if (options.json) {
    process.stdout.write(`${JSON.stringify(redactDeep({ network: network.label, mirrorsEnabled: loaded.config.mirrors, ecosystems: sections }), null, 2)}\n`)
    return 0
  }
  const lines = [`health from this network (${network.label}); state in ${file}`]
  if (!loaded.config.mirrors) lines.push(`mirrors are off (mirrors: false, from ${loaded.origins.mirrors}): only the index is used`)
  for (const section of sections) {
    lines.push('', `${section.ecosystem}:`, ...table(section.mirrors.map(mirror => [
      mirror.role === 'index' ? 'index' : mirror.role === 'mirror' ? String(mirror.position) : '-',
      mirror.id, mirror.url, mirror.origin,
      mirror.role === 'unused' ? 'not in your list' : `${mirror.summary}${mirror.inUse ? '  ← used first' : ''}`,
    ])))
  }
  print(lines)
  return 0
}

/** The diagnosis category a failed probe stands for, so probes and real attempts share one health record. */
function categoryOf(result: ProbeResult): string {
  if (result.status) return result.status >= 500 ? 'server_error' : result.status === 429 ? 'rate_limited' : result.status === 401 || result.status === 403 ? 'http_auth' : 'package_not_found'
  if (/^no answer/.test(result.error ?? '')) return 'timeout'
  if (/ENOTFOUND|EAI_AGAIN/.test(result.error ?? '')) return 'dns'
  if (/CERT|SSL|TLS/i.test(result.error ?? '')) return 'ssl'
  return 'connection'
}

function bar(latencyMs: number, slowestMs: number): string {
  const width = 16
  const filled = Math.max(1, Math.round((latencyMs / Math.max(slowestMs, 1)) * width))
  return `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`
}

/** `resilient mirrors test [ecosystem]`: probes every mirror at once with one small real request, ranks by latency. */
export async function runMirrorsTest(ecosystem: string | undefined, options: { json?: boolean; timeout?: number; all?: boolean }, globals: RunFlags): Promise<number> {
  const { loaded, ecosystems, network, file } = await setup(ecosystem, globals)
  if (loaded.config.offline) {
    throw new ResilientError(`Offline mode is on (offline, from ${loaded.origins.offline}): mirrors test makes network requests.`, EXIT.usage, 'Run it without --offline / RESILIENT_OFFLINE.')
  }
  const timeoutMs = Math.round((options.timeout ?? 5) * 1000)
  const targets = ecosystems.flatMap(name => effectiveMirrors(name, loaded.config)
    .filter(mirror => options.all || mirror.role !== 'unused')
    .map(mirror => ({ ecosystem: name, id: mirror.id, url: mirror.url })))
  const started = Date.now()
  const results = await probeMirrors(targets, { timeoutMs, env: process.env })
  const elapsedMs = Date.now() - started
  const at = Date.now()
  await updateState(file, state => addOutcomes(state, network, results.map(result => ({ url: result.url,
    outcome: { at, ok: result.ok, via: 'probe' as const, latencyMs: result.latencyMs, category: result.ok ? undefined : categoryOf(result) } }))), warn)
    .catch(error => warn(`could not record the results: ${(error as Error).message}`))
  const ranked = ecosystems.map(name => ({ ecosystem: name, probe: PROBE_DESCRIPTIONS[name], results: rankResults(results.filter(result => result.ecosystem === name)) }))
  if (options.json) {
    process.stdout.write(`${JSON.stringify(redactDeep({ timeoutMs, elapsedMs, network: network.label, ecosystems: ranked }), null, 2)}\n`)
  } else {
    const bars = Boolean(process.stdout.isTTY)
    const lines: string[] = []
    for (const section of ranked) {
      const slowest = Math.max(...section.results.map(result => result.latencyMs ?? 0))
      lines.push(`${section.ecosystem}: ${section.probe}, all at once, timeout ${timeoutMs / 1000} s`, ...table(section.results.map((result, index) => [
        result.ok ? String(index + 1) : '✖', result.id, result.url,
        ...(bars ? [result.ok ? bar(result.latencyMs!, slowest) : ''] : []),
        result.ok ? `${result.latencyMs} ms  HTTP ${result.status}` : result.error!,
      ])), '')
    }
    print(lines.slice(0, -1))
  }
  return results.some(result => result.ok) ? 0 : 1
}
