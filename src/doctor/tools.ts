import { execa } from 'execa'
import type { Config } from '../config/schema.js'
import { MIRRORS } from '../mirrors/index.js'
import { redact } from '../redact.js'
import { TOOLS } from '../tools/index.js'
import type { ToolAdapter, ToolContext } from '../tools/types.js'
import { which } from '../tools/which.js'
import type { Problem, Section } from './types.js'

export interface ToolFinding {
  tool: string
  found: boolean
  command?: string
  path?: string
  version?: string
  index?: { url: string; origin: string }
  mirrors: string[]
}

/** The tool's `--version` line (`version` as a fallback: go), or why it gave none. */
async function versionOf(argv: string[], env: NodeJS.ProcessEnv): Promise<{ ok: boolean; line: string }> {
  let failure = 'no answer'
  for (const flag of ['--version', 'version']) {
    const result = await execa(argv[0]!, [...argv.slice(1), flag], { env, extendEnv: false, reject: false, timeout: 20_000, stdin: 'ignore' })
    const lines = `${result.stdout}\n${result.stderr}`.split('\n').map(text => text.trim()).filter(Boolean)
    if (result.exitCode === 0 && lines[0]) return { ok: true, line: lines[0] }
    if (flag === '--version') failure = lines.at(-1) ?? (result.timedOut ? 'timed out' : `exit ${result.exitCode}`)
  }
  return { ok: false, line: `version unknown: ${argv.join(' ')} --version said "${failure}"` }
}

/** The first spelling that works: a bare executable counts when it exists; `python3 -m uv` only when it answers. */
async function findForm(adapter: ToolAdapter, env: NodeJS.ProcessEnv): Promise<{ form: string[]; path: string; version: string } | undefined> {
  for (const form of adapter.alternatives) {
    const path = which(form[0]!, env)
    if (!path) continue
    const version = await versionOf(form, env)
    if (version.ok || form.length === 1) return { form, path, version: version.line }
  }
  return undefined
}

function indexOf(adapter: ToolAdapter, context: ToolContext, config: Config | undefined): { url: string; origin: string } {
  const configured = config?.[adapter.ecosystem]?.index
  try {
    const choice = adapter.findUserIndex(context)
    if (choice) return { url: choice.url, origin: choice.origin }
  } catch (error) {
    return { url: '?', origin: `could not be read: ${(error as Error).message}` }
  }
  if (configured) return { url: configured, origin: `resilient config ${adapter.ecosystem}.index` }
  return { url: adapter.defaultIndex, origin: `${adapter.name} default` }
}

function indexProblems(finding: ToolFinding): Problem[] {
  const url = finding.index?.url
  if (!url || url === 'none' || url === '?') return []
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return [{ severity: 'broken', area: 'tools', message: `${finding.tool}'s index "${redact(url)}" (${finding.index!.origin}) is not a URL.`, fix: `Correct it where it is set (${finding.index!.origin}), e.g. https://pypi.org/simple.` }]
  }
  if (parsed.protocol === 'http:' && !['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname)) {
    return [{ severity: 'warning', area: 'tools', message: `${finding.tool} uses a plain-http index ${redact(url)} (${finding.index!.origin}): packages can be altered in transit.`, fix: 'Use the https URL of the index if it has one.' }]
  }
  return []
}

/** Every tool in TOOLS: found where, which version, which index and where that choice comes from, which mirrors. */
export async function checkTools(context: Omit<ToolContext, 'args'>, config: Config | undefined): Promise<Section> {
  // A variant (yarn-berry) is never typed: it is what `yarn` turns out to be, by its version (ToolAdapter.resolveVariant).
  const typed = (Object.values(TOOLS) as ToolAdapter[]).filter(adapter => adapter.executables.test(adapter.name))
  const findings = await Promise.all(typed.map(async (base): Promise<ToolFinding> => {
    const mirrors = config?.[base.ecosystem]?.mirrors ?? MIRRORS[base.ecosystem].map(mirror => mirror.id)
    const found = await findForm(base, context.env)
    if (!found) return { tool: base.name, found: false, mirrors }
    const variant = base.resolveVariant ? await base.resolveVariant(found.path, context.env) : base
    const adapter = variant.name in TOOLS ? variant : base
    return { tool: adapter.name, found: true, command: found.form.join(' '), path: found.path, version: found.version, index: indexOf(adapter, { ...context, args: [], executable: found.path }, config), mirrors }
  }))
  const lines = findings.flatMap(finding => finding.found
    ? [`✔ ${finding.tool.padEnd(10)} ${finding.command} → ${finding.path}`,
       `  ${''.padEnd(10)} ${finding.version}`,
       `  ${''.padEnd(10)} index ${finding.index!.url} (${finding.index!.origin}); mirrors: ${finding.mirrors.length ? finding.mirrors.join(', ') : 'none'}`]
    : [`· ${finding.tool.padEnd(10)} not found on PATH`])
  const problems = findings.flatMap(indexProblems)
  if (!findings.some(finding => finding.found)) {
    problems.push({ severity: 'warning', area: 'tools', message: `None of the package managers resilient knows (${findings.map(f => f.tool).join(', ')}) is on PATH.`, fix: 'Install one (e.g. python3 -m ensurepip, or Node.js for npm), or check PATH.' })
  }
  return { title: 'Package managers', lines, data: findings, problems }
}
