import { makeCertificates, startTlsFront, type Certificates } from '../tls-front.js'
import { startHttpProxy } from '../http-proxy.js'
import type { DifferentialCase, Topology } from './cases.js'
import type { IndexServer, Subject } from './subjects.js'

/**
 * The servers one run of a case talks to (the plain tool and resilient get a side each, the same faults on fresh
 * servers, so that each side's request counts are its own), and what the case's setting adds to the command.
 */
export interface Side {
  /** The index's URL as the tool is given it. */
  index: string
  mirror?: string
  /** Every server of the side: what the run fetched from them. */
  servers: IndexServer[]
  mirrorServer?: IndexServer
  /** Added to the command, the environment and the project by the case's setting (a private source, a proxy, certificates). */
  args: string[]
  env: Record<string, string>
  files: Record<string, string>
  close(): Promise<void>
}

/** An index that refuses connections: a server started and closed at once, its port left unused. */
async function refusedIndex(subject: Subject): Promise<IndexServer> {
  const server = await subject.start({ role: 'index' })
  await server.close()
  return server
}

let certificates: Certificates | undefined

/** `server` behind https (wanting the person's certificate, or not): the same request log, another URL. */
async function overTls(server: IndexServer, clientCertificate: boolean): Promise<IndexServer> {
  const front = await startTlsFront(server.port, certificates ??= makeCertificates(), { clientCertificate })
  const url = new URL(server.url)
  url.protocol = 'https:'
  url.port = String(front.port)
  server.servedAt?.(url.href)
  return { ...server, url: url.href, close: async () => { await front.close(); await server.close() } }
}

export async function startSide(entry: { case: DifferentialCase; topology: Topology }, subject: Subject): Promise<Side> {
  const setting = entry.case
  const cacheable = setting.cacheRestored
  const fault = setting.index(subject)
  let index = fault === 'refused' ? await refusedIndex(subject) : await subject.start({ role: 'index', fault, lacksNewest: setting.lacksNewest?.index, cacheable })
  let mirror = entry.topology === 'mirror' ? await subject.start({ role: 'mirror', fault: setting.mirror?.(subject), lacksNewest: setting.lacksNewest?.mirror, cacheable }) : undefined
  const args: string[] = []
  const env: Record<string, string> = {}
  if (setting.tls || subject.https) {
    if (!subject.trust) throw new Error(`${subject.tool}: no https case`)
    const clientCertificate = setting.tls?.clientCertificate ?? false
    index = await overTls(index, clientCertificate)
    // A dead index refuses connections on the port the tool is given: the front's, not only its closed backend's.
    if (fault === 'refused') await index.close()
    mirror = mirror && await overTls(mirror, clientCertificate)
    const trusted = subject.trust(certificates!, clientCertificate)
    args.push(...trusted.args ?? [])
    Object.assign(env, trusted.env)
  }
  const servers = [index, ...mirror ? [mirror] : []]
  const closing: (() => Promise<void>)[] = servers.map(server => server.close)
  const side: Side = { index: index.url, mirror: mirror?.url, mirrorServer: mirror, servers, args, env, files: {}, close: async () => { await Promise.all(closing.map(close => close())) } }
  if (setting.want?.package === 'private') {
    if (!subject.privateSource) throw new Error(`${subject.tool}: no private source case`)
    const own = await subject.start({ role: 'private' })
    servers.push(own)
    closing.push(own.close)
    const named = subject.privateSource(own.url)
    args.push(...named.args ?? [])
    Object.assign(side.env, named.env)
    Object.assign(side.files, named.files)
  }
  if (setting.proxy443) {
    const proxy = await startHttpProxy({ connectPorts: [443] })
    closing.push(proxy.close)
    Object.assign(side.env, { HTTP_PROXY: proxy.url, http_proxy: proxy.url })
  }
  return side
}
