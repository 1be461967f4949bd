import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { trickle, type Fault } from '../../src/testing/pypi-server.js'
import { buildTarball, type BuiltTarball, type NpmPackageSpec } from './npm-tarball.js'

export type { Fault } from '../../src/testing/pypi-server.js'
export { buildTarball, type BuiltTarball, type NpmPackageSpec } from './npm-tarball.js'

export interface NpmRegistryOptions {
  /** Packages to serve; tarballs are built once, so every registry given the same list serves identical bytes. */
  packages: (NpmPackageSpec | BuiltTarball)[]
  /**
   * Applied to every request, or chosen per request. `corrupt` serves tarballs with other contents while the
   * packument keeps the true integrity: npm fails with EINTEGRITY, pnpm, yarn and bun with their integrity errors.
   */
  fault?: Fault | ((request: { path: string; isTarball: boolean; count: number }) => Fault)
  /** `name` or `name@version` this registry lacks: a mirror lagging behind. */
  missing?: string[]
}

export interface NpmRegistry {
  /** The registry URL with a trailing slash: `http://127.0.0.1:<port>/`. */
  url: string
  port: number
  /** Paths requested, in order (decoded: `/@scope/name`). */
  requests: string[]
  setFault(fault: NpmRegistryOptions['fault']): void
  close(): Promise<void>
}

function packument(base: string, name: string, tarballs: BuiltTarball[]) {
  const versions = Object.fromEntries(tarballs.map(({ spec, filename, integrity, shasum }) => [spec.version, {
    name, version: spec.version, dependencies: spec.dependencies ?? {},
    dist: { tarball: `${base}${name}/-/${filename}`, integrity, shasum },
  }]))
  const latest = tarballs.map(t => t.spec.version).at(-1)!
  return { name, 'dist-tags': { latest }, versions, time: Object.fromEntries(tarballs.map(t => [t.spec.version, '2024-01-01T00:00:00.000Z'])) }
}

function tampered({ spec }: BuiltTarball): Buffer {
  return buildTarball({ ...spec, files: { ...spec.files, 'tampered.js': '// not what the registry published\n' } }).bytes
}

/** An npm registry on 127.0.0.1 with fault injection: packuments and tarballs with correct `dist.integrity`. */
export async function startNpmRegistry(options: NpmRegistryOptions): Promise<NpmRegistry> {
  const tarballs = options.packages.map(entry => 'bytes' in entry ? entry : buildTarball(entry))
  const missing = new Set(options.missing ?? [])
  const available = tarballs.filter(t => !missing.has(t.spec.name) && !missing.has(`${t.spec.name}@${t.spec.version}`))
  const sockets = new Set<Socket>()
  const requests: string[] = []
  const counts = new Map<string, number>()
  let fault = options.fault ?? { kind: 'ok' }
  let base = ''

  const serve = (request: IncomingMessage, response: ServerResponse): void => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)
    requests.push(path)
    const tarballMatch = /^\/((?:@[^/]+\/)?[^/@]+)\/-\/([^/]+\.tgz)$/.exec(path)
    const count = (counts.get(path) ?? 0) + 1
    counts.set(path, count)
    const chosen = typeof fault === 'function' ? fault({ path, isTarball: Boolean(tarballMatch), count }) : fault
    if (chosen.kind === 'blackhole') return
    if (chosen.kind === 'reset') return void request.socket.resetAndDestroy()
    if (chosen.kind === 'status' && (chosen.times === undefined || count <= chosen.times)) {
      const headers: Record<string, string> = { 'content-type': 'application/json' }
      if (chosen.retryAfter !== undefined) headers['retry-after'] = String(chosen.retryAfter)
      return void response.writeHead(chosen.status, headers).end(JSON.stringify({ error: `HTTP ${chosen.status} from the local test registry` }))
    }
    const notFound = () => response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}')
    if (tarballMatch) {
      const tarball = available.find(t => t.spec.name === tarballMatch[1] && t.filename === tarballMatch[2])
      if (!tarball) return void notFound()
      // A valid tarball with other contents: every client gets as far as its integrity check (flipped bytes would
      // make some fail earlier, in gunzip).
      const bytes = chosen.kind === 'corrupt' ? tampered(tarball) : tarball.bytes
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) })
      return void (chosen.kind === 'trickle' ? trickle(response, bytes, chosen.bytesPerSecond) : response.end(bytes))
    }
    const name = path.slice(1)
    const versions = available.filter(t => t.spec.name === name)
    if (!versions.length) return void notFound()
    const body = Buffer.from(JSON.stringify(packument(base, name, versions)))
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) }).end(body)
  }

  const server = createServer(serve)
  server.on('connection', socket => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  base = `http://127.0.0.1:${port}/`
  return {
    url: base,
    port,
    requests,
    setFault: next => { fault = next ?? { kind: 'ok' } },
    close: () => new Promise(resolve => {
      for (const socket of sockets) socket.destroy()
      server.close(() => resolve())
    }),
  }
}
