import { socketInodes } from './tree-sockets.js'
import { canSampleTrees, createTreeSampler, type TreeCounters, type TreeSampler } from './tree-counters.js'
import { findStall, type Sample, type StallSettings } from './stall.js'

export { findStall, type Sample, type StallSettings } from './stall.js'

/** What one attempt received, for --report. */
export interface ProgressSummary {
  bytes: number
  seconds: number
  bytesPerSecond: number
  counter: TreeCounters['counter']
  connections: TreeCounters['connections']
}



// A connection to a fast index lives a fraction of a second: pip fetched a 1 MB wheel from a local index over a
// connection of about 0.1 s, closed about 0.25 s before it exited, all between two samples a second apart, which then
// saw nothing (a report of 0 bytes for a successful download; docs/stall-detection.md). So the tree's sockets are looked at every WATCH_MS (a directory listing, no `ss`), and a
// connection gets full samples every WATCH_MS for its first FAST_SAMPLING_MS; then once a second, as before.
const WATCH_MS = 100
const FAST_SAMPLING_MS = 2000

const UNITS = ['B', 'kB', 'MB', 'GB']

export function formatBytes(bytes: number): string {
  let value = bytes
  let unit = 0
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000
    unit++
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 1 : 0)} ${UNITS[unit]}`
}

export interface ProgressWatchOptions {
  stall: StallSettings
  /** The index the attempt talks to, named in the stall summary. */
  host: string
  /** Receives a line of live throughput every `reportEverySeconds` (resilient prints it with --verbose). */
  report?: (line: string) => void
  reportEverySeconds?: number
  intervalMs?: number
  /** Where progress can be measured, a sampler for the tree of `pid` (tests give a scripted one). */
  createSampler?: ((pid: number) => TreeSampler) | undefined
  /** The socket inodes resilient itself holds, which a child inherits (read from /proc/self/fd; tests give theirs). */
  ownSockets?: () => number[]
  now?: () => number
}

/** Spread `abort` and `onSpawn` into runChild's options; call stop() when the child has exited. */
export interface ProgressWatch {
  abort: AbortSignal
  onSpawn(pid: number): void
  /** Stops sampling; what the attempt received, or undefined where progress cannot be measured. */
  stop(): ProgressSummary | undefined
  /**
   * What the tree has done on the network so far: when it first opened a connection of its own and the bytes it has
   * received (last sample); undefined where it cannot be measured or has not happened yet.
   */
  activity(): { connectedAt?: number; receivedBytes?: number }
  /**
   * How long a transfer of the tool has been open with nothing arriving (ms), where that can be measured (bytes on
   * its sockets, or the relay's count; not the `reads` fallback, which misses pip's recv()); 0 while bytes arrive or
   * nothing is open.
   */
  silentFor(): number | undefined
}

/** Samples the child tree about once a second and aborts the attempt when it stalls. */
export function watchProgress(options: ProgressWatchOptions): ProgressWatch {
  const now = options.now ?? Date.now
  const createSampler = 'createSampler' in options ? options.createSampler : canSampleTrees() ? createTreeSampler : undefined
  const windowMs = options.stall.windowSeconds * 1000
  const reportMs = (options.reportEverySeconds ?? 5) * 1000
  const controller = new AbortController()
  const samples: Sample[] = []
  let timer: NodeJS.Timeout | undefined
  let watcher: NodeJS.Timeout | undefined
  const opened = new Map<number, number>()
  let firstConnectionAt: number | undefined
  let lastSampleAt = Number.NEGATIVE_INFINITY
  let started: number | undefined
  let reported: Sample | undefined
  let busy = false
  let stopped = false
  let current: TreeSampler | undefined
  // Since when nothing has arrived while a transfer was open: moved on by each byte, and while nothing is open.
  let quietSince: number | undefined
  const connectedNow = () => [...opened.values()].some(since => since > Number.NEGATIVE_INFINITY)

  const report = (sample: Sample) => {
    if (!options.report) return
    if (!reported) reported = sample
    if (sample.at - reported.at < reportMs) return
    const rate = ((sample.bytes - reported.bytes) * 1000) / (sample.at - reported.at)
    const seconds = Math.round((sample.at - started!) / 1000)
    options.report(`↓ ${formatBytes(Math.round(rate))}/s over the last ${Math.round((sample.at - reported.at) / 1000)} s (${formatBytes(sample.bytes)} in ${seconds} s) from ${options.host}`)
    reported = sample
  }

  const tick = async (sampler: TreeSampler) => {
    if (busy || stopped) return
    busy = true
    lastSampleAt = now()
    try {
      const counters = await sampler.sample()
      if (stopped) return
      const sample = { ...counters, at: now() }
      const moving = !samples.length || sample.bytes > samples.at(-1)!.bytes
      if (moving || !(sample.transferring ?? connectedNow())) quietSince = sample.at
      samples.push(sample)
      // Keep one sample older than the window: the window's start is measured from it.
      while (samples.length > 2 && samples[1]!.at <= sample.at - windowMs) samples.shift()
      report(sample)
      const stall = findStall(samples, options.stall)
      if (stall && !controller.signal.aborted) {
        clearInterval(timer)
        controller.abort(`stalled: ${stall.bytes} bytes in ${options.stall.windowSeconds} s from ${options.host}`)
      }
    } catch {
      // A sample that fails is skipped: measuring must never break the attempt.
    } finally {
      busy = false
    }
  }

  /**
   * Full samples while a connection is young: every WATCH_MS during its first FAST_SAMPLING_MS. Sockets the child
   * holds when it starts are its inherited ones (libuv gives a child's stdio as socket pairs), not connections.
   */
  const watch = (sampler: TreeSampler) => {
    const at = now()
    const open = new Set(sampler.openSockets?.())
    for (const inode of opened.keys()) if (!open.has(inode)) opened.delete(inode)
    for (const inode of open) if (!opened.has(inode)) opened.set(inode, at)
    if (firstConnectionAt === undefined && [...opened.values()].some(since => since > Number.NEGATIVE_INFINITY)) firstConnectionAt = at
    const young = [...opened.values()].some(since => at - since < FAST_SAMPLING_MS)
    if (young && at - lastSampleAt >= WATCH_MS) void tick(sampler)
  }

  return {
    abort: controller.signal,
    onSpawn(pid) {
      if (!createSampler || started !== undefined) return
      const sampler = current = createSampler(pid)
      started = now()
      void tick(sampler)
      timer = setInterval(() => void tick(sampler), options.intervalMs ?? 1000)
      timer.unref()
      if (!sampler.openSockets) return
      // A socket the tree holds already is inherited only if resilient holds it too (its stdio, a caller's descriptor
      // passed on): a tool that starts in milliseconds (bun) may have opened its connection before this first look,
      // on a busy machine; taken for inherited, it was never seen to open, and a dead index was never left.
      const inherited = new Set((options.ownSockets ?? (() => socketInodes(process.pid)))())
      for (const inode of sampler.openSockets()) opened.set(inode, inherited.has(inode) ? Number.NEGATIVE_INFINITY : started)
      if ([...opened.values()].some(since => since > Number.NEGATIVE_INFINITY)) firstConnectionAt = started
      watcher = setInterval(() => watch(sampler), WATCH_MS)
      watcher.unref()
    },
    activity: () => ({ connectedAt: firstConnectionAt, receivedBytes: samples.at(-1)?.bytes }),
    silentFor: () => quietSince === undefined || samples.at(-1)?.counter === 'reads' ? undefined : now() - quietSince,
    stop() {
      stopped = true
      clearInterval(timer)
      clearInterval(watcher)
      const last = samples.at(-1)
      if (started === undefined || !last) return undefined
      const seconds = Math.max(0.001, (now() - started) / 1000)
      // A download shorter than the gap between samples still shows, where the count can be read at once.
      const counts = current?.countsNow?.()
      const bytes = Math.max(last.bytes, counts?.bytes ?? 0)
      const connections = Math.max(last.connections, counts?.connections ?? 0)
      return { bytes, seconds: Math.round(seconds * 10) / 10, bytesPerSecond: Math.round(bytes / seconds), counter: last.counter, connections }
    },
  }
}
