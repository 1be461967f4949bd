import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { NODE_HOOK_SOURCE, nodeHookEnv } from './node-hook.js'
import { PYTHON_HOOK_SOURCE, pythonHookEnv } from './python-hook.js'
import type { ScriptEcosystem } from './types.js'

/** What the script's own process said about how it ended, once it has exited. */
export type HookOutcome =
  /** No hook ran in it (`python -I`, Bun, Deno, a runner): only its stderr can tell. */
  | { kind: 'absent' }
  /** The hook ran and the process did not end on an uncaught error (a sys.exit, a handled error, os._exit, a signal). */
  | { kind: 'clean'; pytest?: boolean }
  /** The error that ended it, as its interpreter prints it; `prefix` is the Python's sys.prefix. */
  | { kind: 'uncaught'; text: string; prefix?: string }

export interface ScriptHooks {
  /** Variables to add to the script's environment. */
  env: Record<string, string>
  /** How the process `pid` (the one resilient started) ended; clears the reports for the next run. */
  collect(pid: number | undefined): HookOutcome
  dispose(): void
}

const MODULE_CODES = new Set(['MODULE_NOT_FOUND', 'ERR_MODULE_NOT_FOUND', 'ERR_UNKNOWN_BUILTIN_MODULE'])

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
  } catch {
    return undefined
  }
}

function clear(dir: string, keep: string): void {
  for (const name of readdirSync(dir)) if (name !== keep) rmSync(join(dir, name), { force: true, recursive: true })
}

function pythonOutcome(dir: string, pid: number | undefined): HookOutcome {
  const report = pid === undefined ? undefined : readJson(join(dir, `${pid}.json`))
  if (report) {
    if (typeof report.traceback === 'string') return { kind: 'uncaught', text: report.traceback, prefix: String(report.prefix) }
    // `python -m pkg` where pkg itself is missing: runpy prints "No module named pkg" and exits 1, nothing is raised.
    if (typeof report.mainModuleMissing === 'string') return { kind: 'uncaught', text: `ModuleNotFoundError: No module named '${report.mainModuleMissing}'\n`, prefix: String(report.prefix) }
    return { kind: 'clean', pytest: report.pytest === true }
  }
  const started = pid !== undefined && readdirSync(dir).includes(`${pid}.started`)
  return started ? { kind: 'clean' } : { kind: 'absent' }
}

/** The one Node process that is the script (launchers in front of it never report); the latest if several did. */
function nodeOutcome(dir: string): HookOutcome {
  const names = readdirSync(dir)
  const reports = names.filter(name => name.endsWith('.json')).map(name => join(dir, name)).sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs)
  const report = reports.length ? readJson(reports.at(-1)!) : undefined
  if (report && MODULE_CODES.has(String(report.code))) {
    // The header Node prints for it: CommonJS errors carry no [CODE] in their name, ESM ones do.
    const header = report.code === 'MODULE_NOT_FOUND' ? 'Error' : `Error [${String(report.code)}]`
    return { kind: 'uncaught', text: `${header}: ${String(report.message)}\n` }
  }
  return report || names.some(name => name.endsWith('.started')) ? { kind: 'clean' } : { kind: 'absent' }
}

/** Per ecosystem: the hook's file, how it is loaded, and how its reports read. */
interface Hook {
  file: string
  source: string
  env(dir: string, file: string, env: NodeJS.ProcessEnv): Record<string, string>
  outcome(dir: string, pid: number | undefined): HookOutcome
}

const HOOKS = {
  python: { file: 'sitecustomize.py', source: PYTHON_HOOK_SOURCE, env: (dir, _file, env) => pythonHookEnv(dir, env, delimiter), outcome: pythonOutcome },
  node: { file: 'resilient-hook.cjs', source: NODE_HOOK_SOURCE, env: (dir, file, env) => nodeHookEnv(dir, file, env), outcome: dir => nodeOutcome(dir) },
} satisfies Record<ScriptEcosystem, Hook>

/** A private directory (mkdtemp, 0700) holding the hook for the script's ecosystem, and where its reports land. */
export function prepareScriptHooks(ecosystem: ScriptEcosystem | undefined, env: NodeJS.ProcessEnv): ScriptHooks {
  if (!ecosystem) return { env: {}, collect: () => ({ kind: 'absent' }), dispose: () => {} }
  const hook: Hook = HOOKS[ecosystem]
  const dir = mkdtempSync(join(tmpdir(), 'resilient-run-'))
  const file = join(dir, hook.file)
  writeFileSync(file, hook.source, { mode: 0o600 })
  return {
    env: hook.env(dir, file, env),
    collect(pid) {
      const outcome = hook.outcome(dir, pid)
      clear(dir, hook.file)
      return outcome
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  }
}
