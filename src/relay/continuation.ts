import type { Readable } from 'node:stream'
import { failureOf, type RelayContext } from './context.js'
import { contentRangeOf, lengthOf } from './headers.js'
import type { RelaySource } from './types.js'

/** A body to splice into a transfer: its first byte is byte `offset` of the file (what the tool has is skipped). */
export interface Piece {
  source: RelaySource
  body: Readable
  controller: AbortController
  offset: number
}

export interface ContinuationRequest {
  path: string
  /** The absolute byte of the file the tool needs next. */
  position: number
  /** The whole file's length, when known: every piece must come from a file of that length. */
  total?: number
  /** Whether a digest will check the spliced whole (then a piece from a source without Range is safe to splice). */
  verified: boolean
  headers: Record<string, string>
  upstreamOf(source: RelaySource): string | Promise<string>
  /** The sources to try, in order. */
  order: readonly RelaySource[]
  signal: AbortSignal
}

/**
 * The rest of a file from the first source of `order` that can give it: a Range request from `position`, checked
 * against the length of the file (a 206 for the same total, starting at or before `position`). A source that
 * ignores Range and answers 200 with the whole file starts over: its bytes up to `position` are skipped, never sent
 * twice. Without a known length or digest, a piece cannot be told to be of the same file: none is taken.
 */
export async function openContinuation(context: RelayContext, request: ContinuationRequest): Promise<Piece | undefined> {
  if (request.total === undefined && !request.verified) return undefined
  for (const source of request.order) {
    if (request.signal.aborted) return undefined
    if ((context.cooling.get(source.id) ?? 0) > context.now()) continue
    const controller = new AbortController()
    const onAbort = () => controller.abort()
    request.signal.addEventListener('abort', onAbort, { once: true })
    context.ledger.requested(source.id)
    try {
      const response = await context.upstream(await request.upstreamOf(source), { method: 'GET', signal: controller.signal, authorization: source.authorization,
        headers: { ...request.headers, 'accept-encoding': 'identity', range: `bytes=${request.position}-` } })
      const range = response.status === 206 ? contentRangeOf(response.headers['content-range']) : undefined
      const length = lengthOf(response.headers)
      const encoded = (response.headers['content-encoding'] ?? 'identity') !== 'identity'
      const sameFile = (total: number | undefined) => request.total === undefined || total === request.total
      if (!encoded && range && range.start <= request.position && sameFile(range.total)) return { source, body: response.body, controller, offset: range.start }
      if (!encoded && response.status === 200 && sameFile(length)) return { source, body: response.body, controller, offset: 0 }
      context.ledger.failed(source.id, response.status === 404 ? 'not-found' : response.status >= 500 ? 'server-error' : 'bad-range')
      controller.abort()
      response.body.on('error', () => {}).destroy()
    } catch (error) {
      if (!request.signal.aborted) context.ledger.failed(source.id, failureOf(error))
    } finally {
      request.signal.removeEventListener('abort', onAbort)
    }
  }
  return undefined
}

/** Where to continue after `current` broke: the sources after it, then those before, then itself (a lone source). */
export function continuationOrder(context: RelayContext, candidates: readonly RelaySource[], current: RelaySource, path: string): RelaySource[] {
  const bad = context.badCopies.get(path)
  const at = candidates.indexOf(current)
  const others = [...candidates.slice(at + 1), ...candidates.slice(0, Math.max(0, at))].filter(source => source !== current)
  return [...others.filter(source => !bad?.has(source.id)), current, ...others.filter(source => bad?.has(source.id))]
}
