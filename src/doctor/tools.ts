import { execa } from 'execa'
import type { Config } from '../config/schema.js'
import { MIRRORS } from '../mirrors/index.js'
import { redact } from '../redact.js'
import { TOOLS } from '../tools/index.js'
import type { ToolAdapter, ToolContext } from '../tools/types.js'
import { which } from '../tools/argv/which.js'
import type { Problem, Section } from './types.js'

export interface ToolFinding {
  tool: string
  found: boolean
  command?: string
  path?: string
  version?: string
  /** The first line of the error `<tool> --version` gave, when it failed. */
  broken?: string
  index?: { url: string; origin: string }
  mirrors: string[]
}

/**
 * What a failed `--version` said: the first line of its error output (a Python traceback's last line, which names the
 * exception), else of its standard output, else how it ended.
 */
function firstErrorLine(result: { stdout: string; stderr: string; exitCode?: number; timedOut: boolean }): string {
  for (const stream of [result.stderr, result.stdout]) {
    const lines = stream.split('\n').map(text => text.trim()).filter(Boolean)
    if (lines[0] === 'Traceback (most recent call last):') return lines.at(-1)!
    if (lines[0]) return lines[0]
  }
  return result.timedOut ? 'no answer within 20 s' : `exit ${result.exitCode ?? '?'} and no output`
}

/** The tool's `--version` line (`version` as a fallback: go), or the first line of the error `--version` gave. */
async function versionOf(argv: string[], env: NodeJS.ProcessEnv): Promise<{ ok: boolean; line: string }> {
  let failure = 'no answer'
  for (const flag of ['--version', 'version']) {
    const result = await execa(argv[0]!, [...argv.slice(1), flag], { env, extendEnv: false, reject: false, timeout: 20_000, stdin: 'ignore' })
    const lines = `${result.stdout}\n${result.stderr}`.split('\n').map(text => text.trim()).filter(Boolean)
    if (result.exitCode === 0 && lines[0]) return { ok: true, line: lines[0] }
    if (flag === '--version') failure = firstErrorLine({ ...result, stdout: String(result.stdout), stderr: String(result.stderr) })
  }
  return { ok: false, line: failure }
}

/**
 * The first spelling that works: a bare executable counts when it exists (broken when it cannot even say its version:
 * every run through resilient would fail the same way); `python3 -m uv` only when it answers.
 */
async function findForm(adapter: ToolAdapter, env: NodeJS.ProcessEnv): Promise<{ form: string[]; path: string; version?: string; broken?: string } | undefined> {
  for (const form of adapter.alternatives) {
    const path = which(form[0]!, env)
    if (!path) continue
    const version = await versionOf(form, env)
    if (version.ok) return { form, path, version: version.line }
    if (form.length === 1) return { form, path, broken: version.line }
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

function brokenProblems(finding: ToolFinding): Problem[] {
  if (!finding.broken) return []
  return [{
    severity: 'broken', area: 'tools',
    message: `${finding.tool} is on PATH (${finding.path}) but cannot start: \`${finding.command} --version\` failed with "${redact(finding.broken)}".`,
    fix: `Run \`${finding.command} --version\` to see the whole error, then repair or reinstall ${finding.tool}, or take it off PATH; until then \`resilient ${finding.command} ...\` fails the same way.`,
  }]
}

/** Every tool in TOOLS: found where, which version, which index and where that choice comes from, which mirrors. */
export async function checkTools(context: Omit<ToolContext, 'args'>, config: Config | undefined): Promise<Section> {
  // A variant (yarn-berry) is never typed: it is what `yarn` turns out to be, by its version (ToolAdapter.resolveVariant).
  const typed = (Object.values(TOOLS) as ToolAdapter[]).filter(adapter => adapter.executables.test(adapter.name))
  const findings = await Promise.all(typed.map(async (base): Promise<ToolFinding> => {
    const mirrors = config?.[base.ecosystem]?.mirrors ?? MIRRORS[base.ecosystem].map(mirror => mirror.id)
    const found = await findForm(base, context.env)
    if (!found) return { tool: base.name, found: false, mirrors }
    const finding = { tool: base.name, found: true, command: found.form.join(' '), path: found.path, mirrors }
    if (found.broken) return { ...finding, broken: found.broken }
    const variant = base.resolveVariant ? await base.resolveVariant(found.path, context.env) : base
    const adapter = variant.name in TOOLS ? variant : base
    return { ...finding, tool: adapter.name, version: found.version, index: indexOf(adapter, { ...context, args: [], executable: found.path }, config) }
  }))
  const lines = findings.flatMap(finding => !finding.found
    ? [`· ${finding.tool.padEnd(10)} not found on PATH`]
    : finding.broken
      ? [`✖ ${finding.tool.padEnd(10)} ${finding.command} → ${finding.path}`, `  ${''.padEnd(10)} \`${finding.command} --version\` failed: ${finding.broken}`]
      : [`✔ ${finding.tool.padEnd(10)} ${finding.command} → ${finding.path}`,
         `  ${''.padEnd(10)} ${finding.version}`,
         `  ${''.padEnd(10)} index ${finding.index!.url} (${finding.index!.origin}); mirrors: ${finding.mirrors.length ? finding.mirrors.join(', ') : 'none'}`])
  const problems = [...findings.flatMap(indexProblems), ...findings.flatMap(brokenProblems)]
  if (!findings.some(finding => finding.found)) {
    problems.push({ severity: 'warning', area: 'tools', message: `None of the package managers resilient knows (${findings.map(f => f.tool).join(', ')}) is on PATH.`, fix: 'Install one (e.g. python3 -m ensurepip, or Node.js for npm), or check PATH.' })
  }
  return { title: 'Package managers', lines, data: findings, problems }
}
