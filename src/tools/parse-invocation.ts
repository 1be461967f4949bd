import { spawnSync } from 'node:child_process'
import { basename } from 'node:path'
import { closestName } from '../closest-name.js'
import { UnknownToolError, ToolNotExecutableError, ToolNotFoundError } from '../errors.js'
import { TOOLS, type ToolName } from './index.js'
import type { ToolAdapter } from './types.js'
import { lookupProgram, which } from './argv/which.js'

/** A package-manager command as the user typed it, split into the launcher and the tool's own arguments. */
export interface Invocation {
  tool: ToolName
  adapter: ToolAdapter
  /** `['pip']`, `['python3', '-m', 'pip']`: kept as typed so every attempt runs the same interpreter. */
  launcher: string[]
  /** The tool's arguments, untouched. */
  args: string[]
  /** Absolute path of launcher[0] on PATH ('' when missing and allowed: a dry run). */
  executable: string
  /** The tool is not installed here (only with `allowMissing`). */
  missing?: true
}

interface Match { tool: ToolName; launcherLength: number }

function matchTool(argv: string[]): Match | undefined {
  const name = basename(argv[0] ?? '')
  for (const [tool, adapter] of Object.entries(TOOLS) as [ToolName, ToolAdapter][]) {
    if (adapter.executables.test(name)) return { tool, launcherLength: 1 }
    const module = adapter.moduleLaunch
    if (module && module.interpreters.test(name)) {
      // Interpreter flags may stand before -m (`python3 -I -m pip`).
      const m = argv.indexOf('-m')
      if (m > 0 && argv[m + 1] === module.module && argv.slice(1, m).every(arg => arg.startsWith('-'))) {
        return { tool, launcherLength: m + 2 }
      }
    }
  }
  return undefined
}

/** `python3 -m uv` is only an alternative when that interpreter has the module (asked only on this error path). */
function runs(alternative: string[], env: NodeJS.ProcessEnv, skipDir?: (dir: string) => boolean): boolean {
  const executable = which(alternative[0]!, env, skipDir)
  if (!executable || alternative[1] !== '-m') return Boolean(executable)
  const probe = spawnSync(executable, ['-c', `import importlib.util, sys; sys.exit(importlib.util.find_spec(${JSON.stringify(alternative[2])}) is None)`], { env, stdio: 'ignore', timeout: 5000 })
  return probe.status === 0
}

export interface ParseOptions {
  /** Directories to skip on PATH (a shim's own). */
  skipDir?: (dir: string) => boolean
  /** `--dry-run` plans without running: a tool that is not installed here still gets its plan. */
  allowMissing?: boolean
}

export function parseInvocation(argv: string[], env: NodeJS.ProcessEnv, options: ParseOptions | ((dir: string) => boolean) = {}): Invocation {
  const { skipDir, allowMissing } = typeof options === 'function' ? { skipDir: options, allowMissing: false } : options
  const match = matchTool(argv)
  // Variants (yarn-berry) are chosen by version, not typed: list only the names a person types.
  if (!match) {
    const typed = Object.entries(TOOLS).filter(([name, adapter]) => adapter.executables.test(name)).map(([name]) => name)
    const names = [...typed, ...Object.values(TOOLS).flatMap(adapter => (adapter as ToolAdapter).shimNames ?? [])]
    throw new UnknownToolError(argv[0] ?? '', typed, closestName(basename(argv[0] ?? ''), names))
  }
  const base: ToolAdapter = TOOLS[match.tool]
  const adapter = (match.launcherLength === 1 && base.forExecutable?.(basename(argv[0]!))) || base
  const found = lookupProgram(argv[0]!, env, { skip: skipDir })
  if (found.kind === 'not-executable' && !allowMissing) throw new ToolNotExecutableError(found.path)
  const executable = found.kind === 'found' ? found.path : undefined
  if (!executable && !allowMissing) {
    const found = adapter.alternatives.filter(alternative => runs(alternative, env, skipDir)).map(a => a.join(' '))
    throw new ToolNotFoundError(argv[0]!, found)
  }
  return { tool: match.tool, adapter, launcher: argv.slice(0, match.launcherLength), args: argv.slice(match.launcherLength), executable: executable ?? '', missing: !executable || undefined }
}
