import { relative } from 'node:path'
import { sameIndex } from '../retry/sources.js'
import type { RunResult, SourcePlan } from '../retry/types.js'
import type { LockfileGuard } from '../tools/types.js'

export interface RestoreInput {
  result: RunResult
  plan: SourcePlan
  /** The tool's default registry, when the plan's primary names none. */
  defaultIndex: string
  cwd: string
  note(message: string): void
  warn(message: string): void
}

/**
 * After a run that succeeded on a mirror: the registry URLs it wrote into the lockfile go back to the registry the
 * person would otherwise use (the plan's primary), and one line says so. A mirror is for one invocation only.
 */
export async function restoreLockfile(guard: LockfileGuard, { result, plan, defaultIndex, cwd, note, warn }: RestoreInput): Promise<void> {
  if (result.outcome !== 'succeeded' || result.attempts.at(-1)?.source.kind !== 'mirror') return
  const primaryUrl = plan.primary.indexUrl ?? plan.primary.url ?? defaultIndex
  // Every mirror of the run: one whose attempt failed late may already have written URLs the next attempt kept.
  // The person's own index, even a catalog mirror, is what they chose: never "restored".
  const mirrorUrls = [...new Set(result.attempts.flatMap(({ source }) => source.kind === 'mirror' && source.url && !sameIndex(source.url, primaryUrl) ? [source.url] : []))]
  if (!mirrorUrls.length) return
  try {
    const restored = await guard.restore({ mirrorUrls, primaryUrl })
    if (restored) note(`restored ${restored.replaced} registry URL${restored.replaced === 1 ? '' : 's'} in ${relative(cwd, restored.file)} to ${primaryUrl}`)
  } catch (error) {
    warn(`could not restore the registry URLs the mirror wrote into the lockfile: ${(error as Error).message}`)
  }
}
