import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import type { HostTally, RelayEvent } from './types.js'
import type { FromRelay, RelayThreadOptions, ToRelay } from './worker.js'

/** A running relay, wherever it runs. */
export interface RelayHandle {
  base: string
  port: number
  tally(): Promise<Record<string, HostTally>>
  close(): Promise<void>
}

/** The relay's thread program next to the running bundle (dist/relay-worker.cjs); undefined when run from sources. */
function workerFile(): string | undefined {
  // In the CommonJS bundle __dirname is dist/; from the TypeScript sources (tests) there is no bundle to start.
  const file = typeof __dirname === 'string' ? join(__dirname, 'relay-worker.cjs') : undefined
  return file && existsSync(file) ? file : undefined
}

/** Starts the relay on a thread of its own (src/relay/worker.ts), or in this thread when there is no thread program. */
export async function startRelayThread(options: RelayThreadOptions, onEvent: (event: RelayEvent) => void): Promise<RelayHandle> {
  const file = workerFile()
  if (!file) {
    const [{ startRelay }, { readFileSync }] = await Promise.all([import('./server.js'), import('node:fs')])
    const { caFile, ...rest } = options
    const relay = await startRelay({ ...rest, ...(caFile && { ca: readFileSync(caFile, 'utf8') }), onEvent })
    return { base: relay.base, port: relay.port, tally: async () => relay.tally(), close: () => relay.close() }
  }
  // Its own stdout and stderr: otherwise Node would make the run's descriptors non-blocking (src/exec/relay-thread.ts).
  const worker = new Worker(file, { workerData: options, stdout: true, stderr: true, stdin: false })
  worker.unref()
  const waiting = new Map<number, (tally: Record<string, HostTally>) => void>()
  let closed: (() => void) | undefined
  let asked = 0
  const ready = new Promise<{ base: string; port: number }>((resolve, reject) => {
    worker.on('message', (message: FromRelay) => {
      if (message.kind === 'ready') resolve(message)
      else if (message.kind === 'failed') reject(new Error(message.message))
      else if (message.kind === 'event') onEvent(message.event)
      else if (message.kind === 'tally') waiting.get(message.id)?.(message.tally)
      else closed?.()
    })
    worker.on('error', reject)
    worker.on('exit', () => {
      reject(new Error('the relay thread ended'))
      for (const answer of waiting.values()) answer({})
      closed?.()
    })
  })
  const { base, port } = await ready
  const send = (message: ToRelay) => worker.postMessage(message)
  return {
    base, port,
    tally: () => new Promise(resolve => {
      const id = ++asked
      waiting.set(id, tally => {
        waiting.delete(id)
        resolve(tally)
      })
      send({ kind: 'tally', id })
    }),
    close: () => new Promise(resolve => {
      closed = resolve
      send({ kind: 'close' })
    }),
  }
}
