import { readFileSync } from 'node:fs'
import { parentPort, workerData } from 'node:worker_threads'
import { startRelay, type RelayOptions } from './server.js'
import type { HostTally, RelayEvent } from './types.js'

/** What the run's thread and the relay's thread say to each other (src/relay/worker-client.ts is the other side). */
export type ToRelay = { kind: 'tally'; id: number } | { kind: 'close' }
export type FromRelay =
  | { kind: 'ready'; base: string; port: number }
  | { kind: 'failed'; message: string }
  | { kind: 'event'; event: RelayEvent }
  | { kind: 'tally'; id: number; tally: Record<string, HostTally> }
  | { kind: 'closed' }

/** The relay's options as they cross to its thread: data only, the CA bundle by its path. */
export type RelayThreadOptions = Omit<RelayOptions, 'onEvent' | 'now' | 'ca'> & { caFile?: string }

/**
 * The relay's own thread (dist/relay-worker.cjs): its requests never wait on the run's event loop, which copies the
 * tool's output, samples its progress and may block on a slow reader of resilient's own output.
 */
async function main(port: NonNullable<typeof parentPort>, options: RelayThreadOptions): Promise<void> {
  const say = (message: FromRelay) => port.postMessage(message)
  try {
    const { caFile, ...rest } = options
    const relay = await startRelay({ ...rest, ...(caFile && { ca: readFileSync(caFile, 'utf8') }), onEvent: event => say({ kind: 'event', event }) })
    port.on('message', (message: ToRelay) => {
      if (message.kind === 'tally') return say({ kind: 'tally', id: message.id, tally: relay.tally() })
      void relay.close().finally(() => {
        say({ kind: 'closed' })
        port.close()
      })
    })
    say({ kind: 'ready', base: relay.base, port: relay.port })
  } catch (error) {
    say({ kind: 'failed', message: (error as Error).message })
    port.close()
  }
}

if (parentPort) void main(parentPort, workerData as RelayThreadOptions)
