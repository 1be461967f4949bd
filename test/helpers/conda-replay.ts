import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * A conda-channel client's requests for an install, replayed from test/fixtures/replay/<tool>-install.json (each step
 * cites the source it comes from): conda and pixi cannot be installed on these machines. The client does what the
 * tool does with each answer: conda 26.7 GETs the .zst and falls back on a 4xx (`probe: get-fallback`); rattler
 * (pixi) asks HEAD of .zst and .bz2 first (`probe: head`); then ETags, the tool's retries, each package's sha256.
 */
interface Replay {
  probe: 'get-fallback' | 'head'
  subdirs: { value: string[] }
  headers: { value: Record<string, string> }
  retry: { total: number; backoffFactor: number; statusForcelist: number[] }
}
const replayOf = (tool: string) => JSON.parse(readFileSync(join(import.meta.dirname, `../fixtures/replay/${tool}-install.json`), 'utf8')) as Replay

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
  /** Whose requests: `conda` (default) or `pixi`. */
  tool?: 'conda' | 'pixi'
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
async function get(replay: Replay, url: string, headers: Record<string, string>, log: ReplayRequest[], backoffMs: number, method = 'GET'): Promise<Response> {
  const path = new URL(url).pathname.replace(/^\/t\/[^/]+/, '')
  for (let attempt = 0; ; attempt++) {
    const sleep = attempt <= 1 ? 0 : backoffMs * replay.retry.backoffFactor * 2 ** (attempt - 1)
    if (sleep) await new Promise(resolve => setTimeout(resolve, sleep))
    try {
      const response = await fetch(url, { method, headers: { ...replay.headers.value, ...headers } })
      log.push({ path: method === 'GET' ? path : `${method} ${path}`, status: response.status })
      if (!replay.retry.statusForcelist.includes(response.status) || attempt === replay.retry.total) return response
      await response.arrayBuffer().catch(() => undefined)
    } catch (error) {
      log.push({ path, status: 'error' })
      if (attempt === replay.retry.total) throw error
    }
  }
}

/** Fetches every subdir's repodata as conda does, solves by newest version, downloads and checks each package. */
export async function replayCondaInstall(options: ReplayOptions): Promise<ReplayResult> {
  const requests: ReplayRequest[] = []
  const etags = { ...options.etags }
  const backoffMs = options.backoffMs ?? 1000
  const replay = replayOf(options.tool ?? 'conda')
  const base = `${options.alias.replace(/\/?$/, '/')}${options.channel}/`
  try {
    const records = new Map<string, CondaRecord & { url: string }>()
    await Promise.all(replay.subdirs.value.map(async subdir => {
      const conditional = (path: string): Record<string, string> => etags[path] ? { 'if-none-match': etags[path]! } : {}
      if (replay.probe === 'head') {
        // rattler: a variant is there when its HEAD succeeds; the relay offers neither, so both must be missing.
        const [zst, bz2] = await Promise.all(['zst', 'bz2'].map(ext => get(replay, `${base}${subdir}/repodata.json.${ext}`, {}, requests, backoffMs, 'HEAD')))
        if (zst!.ok || bz2!.ok) throw new Error(`${subdir}: a compressed repodata variant seems available, which this replay cannot decompress`)
      } else {
        const zst = await get(replay, `${base}${subdir}/repodata.json.zst`, conditional(`${subdir}/repodata.json`), requests, backoffMs)
        await zst.arrayBuffer()
        // The test channels' .zst is not zstd: conda logs "Could not decompress ... Fall back to .json" (ZstdError).
        if (zst.status !== 200 && (zst.status < 400 || zst.status >= 500 || zst.status === 416)) throw new Error(`HTTP ${zst.status} for ${subdir}/repodata.json.zst`)
      }
      const json = await get(replay, `${base}${subdir}/repodata.json`, conditional(`${subdir}/repodata.json`), requests, backoffMs)
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
      const response = await get(replay, record.url, {}, requests, backoffMs)
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
