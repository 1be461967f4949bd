import { createHash } from 'node:crypto'
import { readFileSync, realpathSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { ScratchDir, ToolAdapter, ToolContext } from '../tools/types.js'
import { writeFileAtomically } from '../files/locked-file.js'
import { stateDir } from '../paths.js'

/** Kept answers, newest last; older ones are dropped beyond this (one per tool install and project setup). */
const KEEP = 64

interface Entry {
  variant: string
  at: string
}

/** The file of kept variant answers: only hashes and adapter names, no path or setting. */
export function variantCacheFile(env: NodeJS.ProcessEnv): string {
  return join(stateDir(env), 'variants.json')
}

function fileState(path: string): string | undefined {
  try {
    const stat = statSync(path)
    return `${stat.size}:${stat.mtimeMs}:${stat.ino}`
  } catch {
    return undefined
  }
}

/** Everything the answer depends on, hashed: the executable (its real path and state), the adapter's files and variables. */
function keyOf(adapter: ToolAdapter, executable: string, context: ToolContext): string {
  const { files, env } = adapter.variantCache!.inputs(context)
  let real = executable
  try {
    real = realpathSync(executable)
  } catch {}
  // Files that exist, by path and state: a sub-folder with nothing of its own shares its project's answer.
  const present = files.flatMap(file => {
    const state = fileState(file)
    return state ? [`${file}=${state}`] : []
  })
  const parts = [adapter.name, real, fileState(real) ?? '-', ...present, ...env.sort().map(name => `${name}=${context.env[name] ?? ''}`)]
  return createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 32)
}

function readEntries(file: string): Record<string, Entry> {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as unknown
    return value && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, Entry> : {}
  } catch {
    return {}
  }
}

/**
 * adapter.resolveVariant, answered from files where they say it for sure (adapter.variantFromFiles), else from the
 * state directory when nothing it depends on changed since it last ran (yarn 1 or berry: `yarn --version` costs a
 * Node start, 0.2-1.3 s). A cache that cannot be read or written only costs that start again; it never fails the run.
 */
export async function resolveVariantCached(adapter: ToolAdapter, executable: string, context: ToolContext, scratch?: ScratchDir): Promise<ToolAdapter> {
  const fromFiles = adapter.variantFromFiles?.(executable, context)
  if (fromFiles) return fromFiles
  // A check that could not answer (adapter.resolveVariant rejected) leaves the adapter as it is, for this run only:
  // kept, one slow `yarn --version` on a busy machine would have decided every later run of the project.
  let unanswered = false
  const resolve = () => adapter.resolveVariant!(executable, context.env, scratch).catch(() => {
    unanswered = true
    return adapter
  })
  if (!adapter.variantCache) return resolve()
  const file = variantCacheFile(context.env)
  const key = keyOf(adapter, executable, context)
  const entries = readEntries(file)
  const kept = entries[key]?.variant
  const known = [adapter, ...adapter.variantCache.variants].find(candidate => candidate.name === kept)
  if (known) return known
  const variant = await resolve()
  if (unanswered) return variant
  const newest = Object.entries(entries).filter(([other]) => other !== key).sort(([, a], [, b]) => String(a.at).localeCompare(String(b.at))).slice(-(KEEP - 1))
  await writeFileAtomically(file, `${JSON.stringify(Object.fromEntries([...newest, [key, { variant: variant.name, at: new Date().toISOString() }]]), null, 2)}\n`).catch(() => {})
  return variant
}
