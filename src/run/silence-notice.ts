import type { Patience } from '../tools/types.js'

/**
 * After this long with a transfer open and nothing arriving, the run says why it waits: longer than an index takes to
 * answer from anywhere, shorter than pip's own first try (15 s), so that a person knows within that try.
 */
export const SILENT_NOTICE_MS = 15_000

export interface Silence {
  /** The silent source, as the person knows it: `pypi.org`. */
  host: string
  tool: string
  silentMs: number
  /** The tool's own timeout and tries for this command, when its adapter knows them. */
  patience?: Patience
  /** What resilient does once the tool gives up: the next source planned, none, or none because the index is the person's own. */
  then: { kind: 'next'; source: string } | { kind: 'none' } | { kind: 'own' }
}

function duration(ms: number): string {
  if (ms < 90_000) return `${Math.round(ms / 1000)} s`
  const minutes = ms / 60_000
  return `${minutes < 10 ? minutes.toFixed(1).replace(/\.0$/, '') : Math.round(minutes)} min`
}

/**
 * The one line a run says when the only source it waits on has sent nothing for a while: the silent host, how long the
 * tool keeps trying by its own settings (resilient never cuts it short), and the way out.
 */
export function describeSilence({ host, tool, silentMs, patience, then }: Silence): string {
  const own = patience
    ? `${tool} keeps waiting by its own settings (${patience.settings}: up to about ${duration(patience.timeoutMs * patience.tries + patience.betweenTriesMs)} in all)`
    : `${tool} keeps waiting by its own settings`
  const next = then.kind === 'next' ? `when it gives up, resilient tries ${then.source}`
    : then.kind === 'own' ? 'your index is never replaced: check the network, VPN or proxy (`resilient mirrors test`)'
    : 'nothing else is planned: a mirror would help (`resilient mirrors list`, `--mirror <name>`), or check the network or proxy (`resilient mirrors test`)'
  return `${host} has sent nothing for ${Math.round(silentMs / 1000)} s; ${own}; ${next}`
}
