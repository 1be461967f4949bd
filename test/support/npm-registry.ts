import type { IncomingMessage, ServerResponse } from 'node:http'
import { startFaultServer, type Fault, type FaultChoice, type FaultServer } from '../../src/demo/fault-server.js'
import { sendBody } from '../../src/demo/send-body.js'
import { buildTarball, type BuiltTarball, type NpmPackageSpec } from './npm-tarball.js'

export type { Fault } from '../../src/demo/fault-server.js'
export { buildTarball, type BuiltTarball, type NpmPackageSpec } from './npm-tarball.js'

export interface NpmRegistryOptions {
  /** Packages to serve; tarballs are built once, so every registry given the same list serves identical bytes. */
  packages: (NpmPackageSpec | BuiltTarball)[]
  /**
   * Applied to every request, or chosen per request. `corrupt` serves tarballs with other contents while the
   * packument keeps the true integrity: npm fails with EINTEGRITY, pnpm, yarn and bun with their integrity errors.
   */
  fault?: FaultChoice
  /** `name` or `name@version` this registry lacks: a mirror lagging behind. */
  missing?: string[]
  /** Honour Range requests for tarballs (default true, as registry.npmjs.org's CDN does). */
  ranges?: boolean
  /** Packuments carry an ETag (If-None-Match → 304) and are gzipped when the client accepts it, as on registry.npmjs.org. */
  likeNpmjs?: boolean
}

export interface NpmRegistry extends Omit<FaultServer, 'baseUrl'> {
  /** The registry URL with a trailing slash: `http://127.0.0.1:<port>/`. */
  url: string
  /**
   * Behind a front (https: test/support/tls-front.ts), the URL clients reach it at, which its packuments' tarball
   * URLs name from then on, as a registry's name its own public address.
   */
  servedAt(url: string): void
}

function packument(base: string, name: string, tarballs: BuiltTarball[]) {
  const versions = Object.fromEntries(tarballs.map(({ spec, filename, integrity, shasum }) => [spec.version, {
    name, version: spec.version, dependencies: spec.dependencies ?? {}, ...(spec.bin && { bin: spec.bin }),
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
  const tarballPath = (path: string) => /^\/((?:@[^/]+\/)?[^/@]+)\/-\/([^/]+\.tgz)$/.exec(path)
  let publicBase: string | undefined
  const respond = (path: string, fault: Fault, response: ServerResponse, base: string, request: IncomingMessage) => {
    const notFound = () => response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}')
    const tarballMatch = tarballPath(path)
    if (tarballMatch) {
      const tarball = available.find(t => t.spec.name === tarballMatch[1] && t.filename === tarballMatch[2])
      if (!tarball) return void notFound()
      // A valid tarball with other contents: every client gets as far as its integrity check (flipped bytes would
      // make some fail earlier, in gunzip).
      const bytes = fault.kind === 'corrupt' ? tampered(tarball) : tarball.bytes
      return void sendBody(request, response, bytes, { type: 'application/octet-stream', fault, ranges: options.ranges !== false })
    }
    const name = path.slice(1)
    const versions = available.filter(t => t.spec.name === name)
    if (!versions.length) return void notFound()
    const body = Buffer.from(JSON.stringify(packument(publicBase ?? base, name, versions)))
    sendBody(request, response, body, { type: 'application/json', fault: { kind: 'ok' }, ranges: false, page: options.likeNpmjs })
  }
  const server = await startFaultServer({ isFile: path => Boolean(tarballPath(path)), respond, errorType: 'application/json' }, options.fault)
  return { url: server.baseUrl, port: server.port, requests: server.requests, authorizations: server.authorizations, setFault: server.setFault, bytesSent: server.bytesSent, close: server.close,
    servedAt: url => { publicBase = url.endsWith('/') ? url : `${url}/` } }
}
