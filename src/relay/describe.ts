import type { MirrorPages } from './page-authority.js'
import type { FailureKind, RelayEvent } from './types.js'

/** `torch-2.9.1-cp311-cp311-manylinux_2_28_x86_64.whl` → `torch-2.9.1…whl`: the name and version, and the type. */
export function shortFileName(path: string): string {
  const name = decodeURIComponent(path.split('?')[0]!.split('/').filter(Boolean).at(-1) ?? path)
  if (name.length <= 32) return name
  const [, stem, ext] = /^(.*?)\.([a-z0-9]+)$/i.exec(name) ?? [, name, '']
  const head = /^[^-]+-[^-]+/.exec(stem!)?.[0] ?? stem!.slice(0, 20)
  return `${head.slice(0, 28)}…${ext}`
}

/** Bytes as pip shows them: decimal units. */
export function sizeOf(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`
  if (bytes >= 1e6) return `${Math.round(bytes / 1e6)} MB`
  return `${Math.round(bytes / 1e3)} kB`
}

const seconds = (ms: number) => ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`

const WHY: Record<FailureKind | 'slow', string> = {
  connect: 'could not be reached', reset: 'dropped the connection', timeout: 'went silent', 'server-error': 'answered with a server error',
  'rate-limited': 'is rate-limiting (429)', 'not-found': 'does not have it', refused: 'refused the request', truncated: 'broke off the transfer',
  'hash-mismatch': 'served a copy that failed its hash', 'bad-range': 'could not continue it', slow: 'was slow to answer',
}

/**
 * One line for the terminal: `torch-2.9.1…whl: pypi.org broke at 612 MB, resuming from tuna`. A page's failover is
 * named by its path; undefined for what is not worth a line (a page another source answered first).
 */
export function describeEvent(event: RelayEvent): string | undefined {
  const name = shortFileName(event.path)
  switch (event.kind) {
    case 'resume':
      return `${name}: ${event.from} ${event.why === 'stalled' ? 'went silent' : 'broke'} at ${sizeOf(event.atBytes)}${event.totalBytes ? ` of ${sizeOf(event.totalBytes)}` : ''}, resuming from ${event.to}`
    case 'failover':
      return event.why === 'slow' ? undefined : `${name}: ${event.from} ${WHY[event.why]}, served by ${event.to}`
    case 'hash-mismatch':
      return `${name}: the copy from ${event.sources.join(' and ')} failed its published hash; it is not passed on`
    case 'gave-up':
      return `${name}: ${event.why}`
    case 'waiting':
      return `${name}: ${event.source} is rate-limiting (429) and asked to wait ${seconds(event.ms)}: waiting it out, then asking again (said once per host)`
  }
}

/**
 * The one line a run says when any page came from a mirror: the index, why it was left, how many pages from which
 * mirror, and that a mirror's list of versions may lag behind the index's.
 */
export function describeMirrorPages({ index, because, pages }: MirrorPages): string {
  const entries = Object.entries(pages)
  const count = entries.reduce((sum, [, n]) => sum + n, 0)
  const from = entries.length === 1 ? `mirror ${entries[0]![0]}` : `mirrors ${entries.map(([id, n]) => `${id} (${n})`).join(', ')}`
  return `${index} ${WHY[because]}: ${count} page${count === 1 ? '' : 's'} (which versions exist) came from ${from} instead; ${entries.length === 1 ? 'its' : 'their'} copies may lag behind ${index}`
}
