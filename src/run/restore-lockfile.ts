import { relative } from 'node:path'
import type { RunPlan, RunResult } from '../plan/types.js'
import type { LockfileGuard } from '../tools/types.js'
import { indexUrlOf, sameIndex } from '../url.js'

export interface RestoreInput {
  result: RunResult
  plan: RunPlan
  cwd: string
  note(message: string): void
  warn(message: string): void
}

/**
 * After any run that made an attempt on a mirror (success, failure or Ctrl-C): the registry URLs it wrote into the
 * lockfile go back to what the plain tool would have written with the person's own settings, and one line says so.
 * A mirror is for one invocation only.
 */
export async function restoreLockfile(guard: LockfileGuard, { result, plan, cwd, note, warn }: RestoreInput): Promise<void> {
  const primaryUrl = indexUrlOf(plan.primary) ?? plan.invocation.adapter.defaultIndex
  // Every mirror of the run: one whose attempt failed late may already have written URLs the next attempt kept.
  // The person's own index, even a catalog mirror, is what they chose: never "restored".
  const mirrorUrls = [...new Set(result.attempts.flatMap(({ source }) => source.kind === 'mirror' && source.url && !sameIndex(source.url, primaryUrl) ? [source.url] : []))]
  if (!mirrorUrls.length) return
  try {
    const restored = await guard.restore({ mirrorUrls, primaryUrl })
    if (restored) note(`restored ${restored.replaced} registry URL${restored.replaced === 1 ? '' : 's'} in ${relative(cwd, restored.file)}: no mirror URL stays in it`)
  } catch (error) {
    warn(`could not restore the registry URLs the mirror wrote into the lockfile: ${(error as Error).message}`)
  }
}
