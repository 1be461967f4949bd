import { readFile, rename } from 'node:fs/promises'
import { withFileLock, writeFileAtomically } from '../files/locked-file.js'
import { emptyState, FIXES_KEPT, MIRRORS_KEPT, NETWORKS_KEPT, NOTICES_KEPT, stateSchema, type State } from './schema.js'

export type Warn = (message: string) => void

type ReadResult = { state: State } | { corrupt: string }

async function readStateFile(file: string): Promise<ReadResult> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: emptyState() }
    throw error
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    return { corrupt: `not JSON (${(error as Error).message})` }
  }
  const parsed = stateSchema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    return { corrupt: `unexpected content at "${issue.path.join('.') || '(top level)'}": ${issue.message}` }
  }
  return { state: parsed.data }
}

/** Moves an unreadable state file out of the way (kept for a post-mortem) and starts afresh. Call under the lock. */
async function setAside(file: string, reason: string, warn: Warn): Promise<State> {
  const aside = `${file}.corrupt-${Date.now()}`
  await rename(file, aside).catch(() => {})
  warn(`The state file ${file} could not be read (${reason}); it was set aside as ${aside} and resilient starts afresh.`)
  return emptyState()
}

/** Reads the state without the lock: writes are atomic renames, so any version read is whole. */
export async function readState(file: string, warn: Warn): Promise<State> {
  const result = await readStateFile(file)
  if ('state' in result) return result.state
  return withFileLock(file, async () => {
    const again = await readStateFile(file)
    return 'state' in again ? again.state : setAside(file, again.corrupt, warn)
  }, warn)
}

function keepNewest<T>(record: Record<string, T>, limit: number, time: (value: T) => number): Record<string, T> {
  const entries = Object.entries(record)
  if (entries.length <= limit) return record
  return Object.fromEntries(entries.sort(([, a], [, b]) => time(b) - time(a)).slice(0, limit))
}

/** Read-modify-write under the lock; `change` edits the state in place. Returns the state as written. */
export async function updateState(file: string, change: (state: State) => void, warn: Warn): Promise<State> {
  return withFileLock(file, async () => {
    const result = await readStateFile(file)
    const state = 'state' in result ? result.state : await setAside(file, result.corrupt, warn)
    change(state)
    state.networks = keepNewest(state.networks, NETWORKS_KEPT, network => network.lastSeen)
    for (const network of Object.values(state.networks)) network.mirrors = keepNewest(network.mirrors, MIRRORS_KEPT, health => health.recent.at(-1)?.at ?? 0)
    state.fixes = keepNewest(state.fixes, FIXES_KEPT, fix => fix.at)
    state.notices = keepNewest(state.notices, NOTICES_KEPT, at => at)
    await writeFileAtomically(file, `${JSON.stringify(state, null, 1)}\n`)
    return state
  }, warn)
}
