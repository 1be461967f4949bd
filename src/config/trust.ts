import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import * as z from 'zod/mini'
import { withFileLock, writeFileAtomically } from '../files/locked-file.js'
import { stateDir } from '../paths.js'

/**
 * Project config files the user chose to trust, by absolute path and content hash (`resilient config trust`). A file
 * that is code, or that sends installs to a host of its own choosing, is used only while its content is unchanged:
 * a cloned repository cannot run code or redirect installs through a shim without the user's say.
 */
const trustSchema = z.object({
  version: z.literal(1),
  files: z.record(z.string(), z.object({ sha256: z.string(), at: z.string() })),
})
type TrustStore = z.infer<typeof trustSchema>

export type TrustVerdict = 'trusted' | 'untrusted' | 'changed'

export function trustStoreFile(env: NodeJS.ProcessEnv): string {
  return join(stateDir(env), 'trusted-configs.json')
}

export function contentHash(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex')
}

function readStore(file: string): TrustStore {
  try {
    const parsed = trustSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')))
    return parsed.success ? parsed.data : { version: 1, files: {} }
  } catch {
    return { version: 1, files: {} }
  }
}

/** `RESILIENT_TRUST_PROJECT_CONFIG=1`: in CI, the checked-out project is the user's own. */
export function trustsEveryProject(env: NodeJS.ProcessEnv): boolean {
  return /^(1|true|yes|on)$/i.test(env.RESILIENT_TRUST_PROJECT_CONFIG ?? '')
}

/** Whether `path`, whose content is `content`, is trusted as it is now. */
export function trustOf(path: string, content: string | Buffer, env: NodeJS.ProcessEnv): TrustVerdict {
  if (trustsEveryProject(env)) return 'trusted'
  const entry = readStore(trustStoreFile(env)).files[path]
  if (!entry) return 'untrusted'
  return entry.sha256 === contentHash(content) ? 'trusted' : 'changed'
}

/** Records `path` with its current content as trusted; returns the hash recorded. */
export async function trustFile(path: string, content: string | Buffer, env: NodeJS.ProcessEnv): Promise<string> {
  const file = trustStoreFile(env)
  const sha256 = contentHash(content)
  await withFileLock(file, async () => {
    const store = readStore(file)
    store.files[path] = { sha256, at: new Date().toISOString() }
    await writeFileAtomically(file, `${JSON.stringify(store, null, 2)}\n`)
  })
  return sha256
}
