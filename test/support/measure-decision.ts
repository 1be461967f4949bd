import { configSchema } from '../../src/config/schema.js'
import { MIRRORS } from '../../src/mirrors/index.js'
import { gatherPlanRequest } from '../../src/plan/gather.js'
import { planRun } from '../../src/plan/plan-run.js'
import type { AttemptRecord } from '../../src/plan/types.js'
import { decideNext } from '../../src/retry/policy.js'
import { TOOLS, type ToolName } from '../../src/tools/index.js'
import type { IndexChoice } from '../../src/tools/types.js'
import { hostOf } from '../../src/url.js'
import type { Diagnosis } from '../../src/diagnose/types.js'

// What the retry loop does after a failure, measured on pasted outputs (`npm run bench`): the plan `planRun` makes
// for the tool, with the index the output names as the person's own, and the step `decideNext` picks after that first
// attempt failed with this diagnosis. The same two functions the loop runs (src/retry/attempts-loop.ts); only the plan's
// input is inferred, since a paste rarely shows the command. Measurement only: the loop never loads this module.

/** Arguments that make each adapter plan a network run: the first its `classify` calls a network command. */
const NETWORK_ARGS = [['install', 'x'], ['add', 'x'], ['pip', 'install', 'x'], ['get', 'x'], ['mod', 'download'], ['fetch'], ['sync']]

const DEFAULTS = configSchema.parse({})
const SOURCE_DECIDES = new Set(['http_auth', 'package_not_found'])

/**
 * The index the failing run used, as the output shows it: none (the tool's default) when the failing host is a public
 * upstream, a file host, the proxy or unnamed; the catalog mirror of that host; else the host itself, the person's own
 * index (a tool contacts only the hosts it was configured for).
 */
function indexOf(diagnosis: Diagnosis, ecosystem: keyof typeof MIRRORS): IndexChoice | null {
  const { host, hostRole, url } = diagnosis.facts
  if (!host || hostRole === 'upstream' || hostRole === 'file-host' || hostRole === 'proxy') return null
  const mirror = MIRRORS[ecosystem].find(candidate => hostOf(candidate.url) === host)
  if (mirror) return { url: mirror.url, origin: 'the output' }
  if (hostRole === 'mirror') return null
  return { url: url && hostOf(url) === host ? url : `https://${host}/`, origin: 'the output' }
}

/**
 * Whether `tool` could have contacted `host`: not when the host is a catalog mirror of another ecosystem only (a PyPI
 * mirror in an npm message). The catalog measure fills its messages with hosts the tool could have used.
 */
export function couldContact(tool: string, host: string): boolean {
  const own = tool in TOOLS ? TOOLS[tool as ToolName].ecosystem : undefined
  const serves = Object.entries(MIRRORS).filter(([, mirrors]) => mirrors.some(mirror => hostOf(mirror.url) === host)).map(([ecosystem]) => ecosystem)
  return own === undefined || serves.length === 0 || serves.includes(own)
}

/** The words of a pasted command, quotes removed (`uv pip install --index-url "https://..." x`). */
function words(command: string): string[] {
  return [...command.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map(match => match[1] ?? match[2] ?? match[3]!)
}

/** The command's words from the tool's name on (`python -m pip install x` too), when it names the tool. */
function fromTool(tool: string, command: string): string[] | undefined {
  const all = words(command)
  const at = all.slice(0, 4).findIndex(word => word === tool || word.endsWith(`/${tool}`))
  return at < 0 ? undefined : all.slice(at)
}

/**
 * The argv the loop would have run: the case's command, or the command a paste shows on one of its first lines
 * (`$ uv pip install --index-url ... x`), when either names the tool.
 */
export function commandArgv(tool: string, command: string | null | undefined, output = ''): string[] | undefined {
  if (command) return fromTool(tool, command)
  const typed = output.split('\n').slice(0, 5).find(line => new RegExp(`^(?:\\S*[$>#] )?${tool} `).test(line.trim()))
  return typed ? fromTool(tool, typed.trim()) : undefined
}

/**
 * Whether the loop makes another attempt after a first one that failed with `diagnosis`, or undefined for a tool the
 * loop does not run (a paste of `python` or `node` alone). The command, when the case shows it (commandArgv), gives
 * the index the person chose as the loop reads it (ToolAdapter.findUserIndex); else the failing host the output names.
 */
export function loopRetries(tool: string, diagnosis: Diagnosis, argv?: readonly string[]): boolean | undefined {
  if (!(tool in TOOLS)) return undefined
  const adapter = TOOLS[tool as ToolName]
  const typed = argv?.slice(1)
  const args = typed && adapter.classify(typed) === 'network' ? typed : NETWORK_ARGS.find(candidate => adapter.classify(candidate) === 'network')
  if (!args) return undefined
  const invocation = { tool: tool as ToolName, adapter, launcher: [tool], args, executable: `/usr/bin/${tool}` }
  // No home and no project: only the command line speaks, as in the paste.
  const request = gatherPlanRequest(invocation, { env: {}, cwd: '/nonexistent/project', home: '/nonexistent/home' }, { config: DEFAULTS })
  // A 401/403 or a 404 is retried or not by whose index it is; a paste that names neither the host nor the index
  // leaves that to the person's config, which it does not show: no inference then (the caller keeps the summary).
  if (!request.userIndex && !diagnosis.facts.host && SOURCE_DECIDES.has(diagnosis.category)) return undefined
  const plan = planRun({ ...request, userIndex: request.userIndex ?? indexOf(diagnosis, adapter.ecosystem) })
  const [attempt, ...queue] = plan.attempts
  if (!attempt) return undefined
  const record: AttemptRecord = { number: 1, source: attempt.source, command: attempt.command, hosts: attempt.hosts, exitCode: 1, durationMs: 1000, diagnosis }
  const decision = decideNext({ diagnosis, attempt, history: [record], queue, plan, elapsedMs: 1000, random: () => 0.5 })
  return decision.action === 'attempt'
}
