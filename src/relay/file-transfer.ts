import type { ServerResponse } from 'node:http'
import { pipeline } from 'node:stream/promises'
import type { RelayContext } from './context.js'
import { continuationOrder, openContinuation, type Piece } from './continuation.js'
import { Verifier } from './expected-hash.js'
import { watchForStall } from './stall-watch.js'
import { breakOff, drained } from './tool-response.js'
import { contentRangeOf, lengthOf, toolHeaders } from './headers.js'
import type { FailureKind, RelaySource } from './types.js'
import type { UpstreamResponse } from './upstream.js'

/** What may wait for the tool to read it, per transfer: enough to keep both sides busy, small against memory. */
const QUEUED_BYTES = 1024 * 1024

export interface FileTransfer {
  context: RelayContext
  path: string
  method: string
  /** The upstream request headers of the transfer (Range and Accept-Encoding are set per piece). */
  headers: Record<string, string>
  candidates: readonly RelaySource[]
  upstreamOf(source: RelaySource): string | Promise<string>
  winner: { source: RelaySource; response: UpstreamResponse; controller: AbortController }
  response: ServerResponse
  /** Aborted when the tool goes away. */
  signal: AbortSignal
}

/**
 * A file streamed to the tool from its first byte, as it arrives, whatever its size: a slow link is never silent to
 * the tool. When its body breaks (an error, a connection closed early, a stall while another source can take over),
 * it continues from the byte where it broke on the next source (or the same), spliced into the same response; the
 * whole file's published digest is checked before its last chunk is released, and a mismatch ends the response as
 * a broken transfer, so that the tool retries (its next try asks the sources with a good copy first) instead of
 * keeping a corrupt file.
 */
export async function transferFile(transfer: FileTransfer): Promise<void> {
  const { context, response: tool, winner, path } = transfer
  const upstream = winner.response
  if (upstream.status !== 200 && upstream.status !== 206) {
    tool.writeHead(upstream.status, toolHeaders(upstream.headers))
    pipeline(upstream.body, tool).catch(() => tool.destroy())
    return
  }
  const range = upstream.status === 206 ? contentRangeOf(upstream.headers['content-range']) : undefined
  const start = range?.start ?? 0
  const length = lengthOf(upstream.headers)
  const total = range ? range.total : length
  const end = range ? range.end + 1 : length
  const identity = (upstream.headers['content-encoding'] ?? 'identity') === 'identity'
  const expected = identity && start === 0 && end !== undefined && end === total ? context.hashes.of(path) : undefined
  const verifier = expected && new Verifier(expected)
  const writeHead = () => tool.writeHead(upstream.status, toolHeaders(upstream.headers, {
    'content-length': end !== undefined ? String(end - start) : undefined, 'accept-ranges': 'bytes',
    'content-range': range ? `bytes ${start}-${range.end}/${range.total ?? '*'}` : undefined,
    'content-encoding': identity ? undefined : String(upstream.headers['content-encoding']),
  }))
  writeHead()
  if (transfer.method === 'HEAD') {
    winner.controller.abort()
    tool.end()
    return
  }
  await splice(transfer, { start, end, total, identity, verifier })
}

interface Shape {
  start: number
  end: number | undefined
  total: number | undefined
  identity: boolean
  verifier: Verifier | undefined
}

async function splice(transfer: FileTransfer, { start, end, total, identity, verifier }: Shape): Promise<void> {
  const { context, response: tool, winner, path } = transfer
  // What waits for the digest: the last chunk received.
  const held: Buffer[] = []
  let position = start
  let piece: Piece = { source: winner.source, body: winner.response.body, controller: winner.controller, offset: start }
  const first = piece
  const contributors = new Set([winner.source.id])
  const gone = () => transfer.signal.aborted || tool.destroyed
  // Waiting for the tool after every chunk would keep reading and writing from overlapping: up to 1 MB may queue.
  const write = async (data: Buffer) => {
    if (gone()) return
    tool.write(data)
    if (tool.writableLength > QUEUED_BYTES) await drained(tool)
  }
  const continueFrom = (current: Piece, order = continuationOrder(context, transfer.candidates, current.source, path)) =>
    openContinuation(context, { path, position, total, verified: Boolean(verifier), headers: transfer.headers, upstreamOf: transfer.upstreamOf, order, signal: transfer.signal })
  // A body gone silent is continued elsewhere when another source answers first (src/relay/stall-watch.ts).
  let takeover: Piece | undefined
  const watch = (current: Piece) => watchForStall(context, current, () => continueFrom(current, continuationOrder(context, transfer.candidates, current.source, path).filter(source => source !== current.source)),
    next => {
      takeover = next
      current.controller.abort()
    })
  const pump = async (current: Piece) => {
    const stall = identity && transfer.candidates.length > 1 ? watch(current) : undefined
    let seen = 0
    try {
      for await (const chunk of current.body as AsyncIterable<Buffer>) {
        stall?.progress()
        const at = current.offset + seen
        seen += chunk.length
        // What the tool already has (a piece that started over, or earlier than the break) is skipped.
        let data = at < position ? chunk.subarray(Math.min(chunk.length, position - at)) : chunk
        if (end !== undefined && position + data.length > end) data = data.subarray(0, end - position)
        if (!data.length) continue
        position += data.length
        context.ledger.bytes(current.source.id, data.length, current !== first)
        if (!verifier) await write(data)
        else {
          // The last chunk is held back until the whole file is checked.
          verifier.update(data)
          held.push(data)
          if (held.length > 1) await write(held.shift()!)
        }
        if (gone()) return
      }
    } finally {
      stall?.stop()
    }
  }

  const giveUp = (why: string) => {
    context.ledger.event({ kind: 'gave-up', path, why })
    breakOff(tool)
  }
  for (let resumes = 0; ; resumes++) {
    let broke: FailureKind | undefined
    try {
      await pump(piece)
      if (end !== undefined && position < end) broke = 'truncated'
    } catch {
      // Whether the connection was reset or closed early, the body broke in the middle: a truncated transfer.
      broke = 'truncated'
    }
    if (gone()) return void piece.controller.abort()
    if (!broke) break
    const stalled = takeover
    takeover = undefined
    context.ledger.failed(piece.source.id, stalled ? 'timeout' : broke)
    piece.controller.abort()
    if (!identity || resumes >= 2 * transfer.candidates.length + 2) return giveUp(`it broke at byte ${position} too often`)
    const next = stalled ?? await continueFrom(piece)
    if (!next) return giveUp(`no source could continue it from byte ${position}`)
    context.ledger.event({ kind: 'resume', path, from: piece.source.id, to: next.source.id, atBytes: position, why: stalled ? 'stalled' : 'broke', ...(total !== undefined && { totalBytes: total }) })
    piece = next
    contributors.add(next.source.id)
  }
  if (verifier && !verifier.matches()) {
    const bad = context.badCopies.get(path) ?? new Set()
    for (const id of contributors) {
      context.ledger.failed(id, 'hash-mismatch')
      bad.add(id)
    }
    context.badCopies.set(path, bad)
    context.ledger.event({ kind: 'hash-mismatch', path, sources: [...contributors] })
    return breakOff(tool)
  }
  tool.end(Buffer.concat(held))
}
