import { ownTrust } from '../own-trust.js'

/** What one request of resilient's own to an index saw: any HTTP answer; none (a timeout, a refused or reset connection); or an error that says nothing of the index. */
export type Answer = 'answered' | 'silent' | 'unknown'

/** One small GET of `target` with `headers`, ended by `signal`. */
export type AskIndex = (target: URL, headers: Record<string, string>, signal: AbortSignal) => Promise<Answer>

/**
 * One GET with Node's own client, its answer's body never read: any HTTP status is `answered`; an abort (the
 * caller's timeout), a refused or reset connection `silent`; anything else (a name that does not resolve, a
 * certificate Node distrusts while the tool may trust it) `unknown`. Not fetch, which loads undici: ~37 ms of CPU
 * on the 2-core machine, spent beside the tool's own start on every hedged attempt.
 */
export const askIndex: AskIndex = async (target, headers, signal) => {
  const secure = target.protocol === 'https:'
  const [client, trust] = await Promise.all([secure ? import('node:https') : import('node:http'), secure ? ownTrust() : {}])
  return new Promise(resolve => {
    try {
      const request = client.request(target, { headers, signal, agent: false, ...trust }, response => {
        response.destroy()
        resolve('answered')
      })
      request.on('error', (error: NodeJS.ErrnoException) => resolve(error.name === 'AbortError' || /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT)$/.test(error.code ?? '') ? 'silent' : 'unknown'))
      request.end()
    } catch {
      resolve('unknown')
    }
  })
}
