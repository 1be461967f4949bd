import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as z from 'zod/mini'
import { redactDeep } from '../redact.js'
import { withFileLock, writeFileAtomically } from '../files/locked-file.js'
import { stateDir } from '../paths.js'

// What `resilient run` installed on its own, kept so the person can review it later (`resilient doctor` shows it):
// an auto-install changes an environment outside the project's requirements, and must not be forgotten.

const entrySchema = z.object({
  /** ISO time of the install. */
  at: z.string(),
  ecosystem: z.enum(['python', 'node']),
  /** The import that failed: `yaml`, `google.protobuf`, `lodash/fp`. */
  module: z.string(),
  /** What was installed: `PyYAML`, `lodash`. */
  package: z.string(),
  /** The version installed (read from the environment after the install). */
  version: z.optional(z.string()),
  /** Where the project already declares it, when it does: `requirements.txt:3`. */
  declaredIn: z.optional(z.string()),
  /** `allowlist` (reviewed mapping) or `proposed` (the person confirmed an unreviewed name). */
  tier: z.enum(['allowlist', 'proposed']),
  /** How consent was given: `--yes` or a prompt answered in the terminal. */
  consent: z.enum(['yes-flag', 'prompt']),
  /** Where: the interpreter (`/p/.venv/bin/python`) or the Node project directory. */
  environment: z.string(),
  /** The install command as run (its first attempt), secrets redacted. */
  command: z.string(),
  /** The script command that needed it. */
  script: z.string(),
  cwd: z.string(),
})

export type AutoInstallEntry = z.infer<typeof entrySchema>

const fileSchema = z.object({ version: z.literal(1), entries: z.array(entrySchema) })

/** Entries kept: the newest ones; enough to review months of use. */
export const ENTRIES_KEPT = 500

/** `<state dir>/auto-installed.json` (RESILIENT_STATE_DIR, else $XDG_STATE_HOME/resilient, else the platform's). */
export function autoInstallRecordFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(stateDir(env), 'auto-installed.json')
}

async function readEntries(file: string): Promise<AutoInstallEntry[] | { unreadable: string }> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    return { unreadable: (error as Error).message }
  }
  try {
    const parsed = fileSchema.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data.entries : { unreadable: `unexpected content: ${parsed.error.issues[0]?.message}` }
  } catch (error) {
    return { unreadable: `not JSON (${(error as Error).message})` }
  }
}

/**
 * Everything `resilient run` auto-installed, oldest first. For `resilient doctor`: never throws; an unreadable
 * file reads as no entries plus the reason.
 */
export async function readAutoInstallRecord(env: NodeJS.ProcessEnv = process.env): Promise<{ file: string; entries: AutoInstallEntry[]; error?: string }> {
  const file = autoInstallRecordFile(env)
  const read = await readEntries(file)
  return Array.isArray(read) ? { file, entries: read } : { file, entries: [], error: read.unreadable }
}

/** Appends one entry under the state lock (many runs may install at once); an unreadable file is replaced. */
export async function appendAutoInstallRecord(entry: AutoInstallEntry, env: NodeJS.ProcessEnv = process.env, warn: (message: string) => void = () => {}): Promise<void> {
  const file = autoInstallRecordFile(env)
  await withFileLock(file, async () => {
    const read = await readEntries(file)
    if (!Array.isArray(read)) warn(`${file} could not be read (${read.unreadable}); it is started afresh.`)
    // Redacted whatever the caller passed: a script's own `--db-password x` is no record to keep.
    const entries = [...(Array.isArray(read) ? read : []), entrySchema.parse(redactDeep(entry))].slice(-ENTRIES_KEPT)
    await writeFileAtomically(file, `${JSON.stringify({ version: 1, entries }, null, 2)}\n`)
  }, warn)
}
