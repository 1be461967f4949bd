import { TOOLS } from '../tools/index.js'
import type { ReadOnlyForms, ToolAdapter } from '../tools/types.js'

/** Executable names a shim or an alias can stand in for, in TOOLS order: each adapter's own (ToolAdapter.shimNames). */
export const SHIM_CANDIDATES: readonly string[] = (Object.values(TOOLS) as ToolAdapter[]).flatMap(adapter => adapter.shimNames ?? [])

/** Whether `resilient <name> ...` is understood (the name starts a tool directly, not via `python -m`). */
export function isKnownExecutable(name: string): boolean {
  return (Object.values(TOOLS) as ToolAdapter[]).some(adapter => adapter.executables.test(name))
}

/** The tool (its adapter's name, the name of its page in docs/tools/) an executable starts: `npx` is npm's. */
export function toolOf(name: string): string | undefined {
  return (Object.values(TOOLS) as ToolAdapter[]).find(adapter => adapter.executables.test(name))?.name
}

/** The candidates resilient knows today. */
export function knownToolNames(): string[] {
  return SHIM_CANDIDATES.filter(isKnownExecutable)
}

/** The read-only invocations a shim for `name` runs without starting Node: from the adapter that starts it. */
export function readOnlyFormsFor(name: string): ReadOnlyForms | undefined {
  const adapter = (Object.values(TOOLS) as ToolAdapter[]).find(each => each.executables.test(name))
  const forms = adapter?.readOnly
  return forms && (!forms.executables || forms.executables.test(name)) ? forms : undefined
}
