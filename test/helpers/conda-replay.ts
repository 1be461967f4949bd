import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * conda's requests for an install, replayed from test/fixtures/replay/conda-install.json (each step cites the conda
 * source it comes from): conda cannot be installed on these machines. The client does what conda 26.7 does with each
 * answer: the .zst probe and its fallback, ETags, urllib3's retries, the size and sha256 checks of each package.
 */
const REPLAY = JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/replay/conda-install.json'), 'utf8')) as {
  subdirs: { value: string[] }
  headers: { value: Record<string, string> }
  retry: { total: number; backoffFactor: number; statusForcelist: number[] }
}

export interface ReplayRequest {
  path: string
  status: number | 'error'
}

export interface ReplayResult {
  /** Name → version installed, when the install completed. */
  installed?: Record<string, string>
  error?: string
  requests: ReplayRequest[]
  /** The ETags conda would keep per repodata path (its cache state), for a second run. */
  etags: Record<string, string>
}

interface CondaRecord {
  name: string
  version: string
  depends: string[]
  sha256?: string
  size?: number
}

export interface ReplayOptions {
  /** The channel alias URL conda is given (the relay's with its `t/<secret>/`, or a server's). */
  alias: string
  channel: string
  specs: string[]
  etags?: Record<string, string>
  /** Seconds → ms for urllib3's backoff sleeps (1: conda's own; tests shorten it). */
  backoffMs?: number
}

const newer = (a: string, b: string) => {
  const [x, y] = [a, b].map(version => version.split('.').map(Number))
  for (let i = 0; i < Math.max(x!.length, y!.length); i++) if ((x![i] ?? 0) !== (y![i] ?? 0)) return (x![i] ?? 0) > (y![i] ?? 0)
  return false
}

/** urllib3's Retry as conda configures it: connection errors and the forced statuses, up to `total` retries. */
async function get(url: string, headers: Record<string, string>, log: ReplayRequest[], backoffMs: number): Promise<Response> {
  const path = new URL(url).pathname.replace(/^\/t\/[^/]+/, '')
  for (let attempt = 0; ; attempt++) {
    const sleep = attempt <= 1 ? 0 : backoffMs * REPLAY.retry.backoffFactor * 2 ** (attempt - 1)
    if (sleep) await new Promise(resolve => setTimeout(resolve, sleep))
    try {
      const response = await fetch(url, { headers: { ...REPLAY.headers.value, ...headers } })
      log.push({ path, status: response.status })
      if (!REPLAY.retry.statusForcelist.includes(response.status) || attempt === REPLAY.retry.total) return response
      await response.arrayBuffer().catch(() => undefined)
    } catch (error) {
      log.push({ path, status: 'error' })
      if (attempt === REPLAY.retry.total) throw error
    }
  }
}

/** Fetches every subdir's repodata as conda does, solves by newest version, downloads and checks each package. */
export async function replayCondaInstall(options: ReplayOptions): Promise<ReplayResult> {
  const requests: ReplayRequest[] = []
  const etags = { ...options.etags }
  const backoffMs = options.backoffMs ?? 1000
  const base = `${options.alias.replace(/\/?$/, '/')}${options.channel}/`
  try {
    const records = new Map<string, CondaRecord & { url: string }>()
    await Promise.all(REPLAY.subdirs.value.map(async subdir => {
      const conditional = (path: string): Record<string, string> => etags[path] ? { 'if-none-match': etags[path]! } : {}
      const zst = await get(`${base}${subdir}/repodata.json.zst`, conditional(`${subdir}/repodata.json`), requests, backoffMs)
      await zst.arrayBuffer()
      // The test channels' .zst is not zstd: conda logs "Could not decompress ... Fall back to .json" (ZstdError).
      if (zst.status !== 200 && (zst.status < 400 || zst.status >= 500 || zst.status === 416)) throw new Error(`HTTP ${zst.status} for ${subdir}/repodata.json.zst`)
      const json = await get(`${base}${subdir}/repodata.json`, conditional(`${subdir}/repodata.json`), requests, backoffMs)
      if (json.status === 304) return
      if (json.status !== 200) throw new Error(`HTTP ${json.status} for ${subdir}/repodata.json`)
      const repodata = JSON.parse(await json.text()) as { packages?: Record<string, CondaRecord>; 'packages.conda'?: Record<string, CondaRecord> }
      const etag = json.headers.get('etag')
      if (etag) etags[`${subdir}/repodata.json`] = etag
      for (const [filename, record] of Object.entries({ ...repodata.packages, ...repodata['packages.conda'] })) {
        const known = records.get(record.name)
        if (!known || newer(record.version, known.version)) records.set(record.name, { ...record, url: `${base}${subdir}/${filename}` })
      }
    }))
    const chosen = new Map<string, CondaRecord & { url: string }>()
    const want = [...options.specs]
    while (want.length) {
      const name = want.shift()!.split(/[\s=<>]/)[0]!
      if (chosen.has(name)) continue
      const record = records.get(name)
      if (!record) throw new Error(`PackagesNotFoundError: ${name}`)
      chosen.set(name, record)
      want.push(...record.depends)
    }
    for (const record of chosen.values()) {
      const response = await get(record.url, {}, requests, backoffMs)
      if (response.status !== 200) throw new Error(`HTTP ${response.status} for ${record.url}`)
      const bytes = Buffer.from(await response.arrayBuffer())
      const length = Number(response.headers.get('content-length') ?? 0)
      if (length && bytes.length !== length) throw new Error('Downloaded bytes did not match Content-Length')
      const digest = createHash('sha256').update(bytes).digest('hex')
      if (record.size !== undefined && bytes.length !== record.size) throw new Error(`size mismatch for ${record.name}`)
      if (record.sha256 && digest !== record.sha256) throw new Error(`ChecksumMismatchError: ${record.name}`)
    }
    return { installed: Object.fromEntries([...chosen].map(([name, record]) => [name, record.version])), requests, etags }
  } catch (error) {
    return { error: (error as Error).message, requests, etags }
  }
}
