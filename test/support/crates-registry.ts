import { createHash } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { startFaultServer, type Fault, type FaultChoice, type FaultServer } from '../../src/demo/fault-server.js'
import { sendBody } from '../../src/demo/send-body.js'
import { incompressibleBytes } from './incompressible.js'
import { gzippedTar } from './npm-tarball.js'

/**
 * A sparse cargo registry on 127.0.0.1 (config.json, index files, .crate downloads), built at test time, with the
 * fault injection of the other local index servers (src/demo/fault-server.ts): a fault for every request, or chosen
 * per request, where a file is a `.crate` download and a page is config.json or an index file.
 * https://doc.rust-lang.org/cargo/reference/registry-index.html
 */
export interface CratesRegistry extends Omit<FaultServer, 'baseUrl'> {
  /** The index URL, with the trailing slash cargo needs: `http://127.0.0.1:<port>/`. */
  url: string
}

export interface Crate {
  name: string
  version: string
  bytes: Buffer
  /** sha256 of `bytes`, hex: the index file's `cksum`. */
  cksum: string
  /** The same crate with other contents (its function answers something else): what a `corrupt` fault serves. */
  tampered(): Buffer
}

export interface CratesRegistryOptions {
  /** Applied to every request, or chosen per request (`isFile`: a `.crate` download). */
  fault?: FaultChoice
  /** `name@version` this registry lacks, in its index files and its downloads: a mirror lagging behind. */
  missing?: string[]
}

function indexPath(name: string): string {
  return name.length <= 2 ? `${name.length}/${name}` : name.length === 3 ? `3/${name[0]}/${name}` : `${name.slice(0, 2)}/${name.slice(2, 4)}/${name}`
}

/**
 * `answer`: what its one function returns; another number makes other bytes under the same name and version.
 * `paddingBytes` of incompressible data make a crate whose transfer takes a while (a break at 80 % has something to
 * resume).
 */
export function buildCrate(name: string, version: string, answer = 42, paddingBytes = 0): Crate {
  const root = `${name}-${version}`
  const bytes = gzippedTar({
    [`${root}/Cargo.toml`]: `[package]\nname = "${name}"\nversion = "${version}"\nedition = "2021"\n`,
    [`${root}/src/lib.rs`]: `pub fn answer() -> u32 { ${answer} }\n`,
    ...(paddingBytes && { [`${root}/padding.bin`]: incompressibleBytes(paddingBytes, 0x9e3779b9 ^ version.length) }),
  })
  return { name, version, bytes, cksum: createHash('sha256').update(bytes).digest('hex'), tampered: () => buildCrate(name, version, answer + 1, paddingBytes).bytes }
}

const DOWNLOAD = /^\/dl\/([^/]+)\/([^/]+)\/download$/

export async function startCratesRegistry(crates: readonly Crate[], options: CratesRegistryOptions = {}): Promise<CratesRegistry> {
  const missing = new Set(options.missing ?? [])
  const available = crates.filter(crate => !missing.has(`${crate.name}@${crate.version}`))
  const respond = (path: string, fault: Fault, response: ServerResponse, base: string, request: IncomingMessage) => {
    const notFound = () => response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n')
    const download = DOWNLOAD.exec(path)
    if (download) {
      const crate = available.find(c => c.name === download[1] && c.version === download[2])
      if (!crate) return void notFound()
      // With its length and Range answered, as static.crates.io sends it (the relay checks a file's digest when it
      // knows where the file ends, and resumes a broken one by Range).
      return void sendBody(request, response, fault.kind === 'corrupt' ? crate.tampered() : crate.bytes, { type: 'application/octet-stream', fault, ranges: true })
    }
    // A page is never cut short (a break is about files); it can be slow, or trickle.
    const pageFault: Fault = fault.kind === 'truncate' || fault.kind === 'corrupt' ? { kind: 'ok' } : fault
    if (path === '/config.json') return void sendBody(request, response, Buffer.from(JSON.stringify({ dl: `${base}dl`, api: null })), { type: 'application/json', fault: pageFault, ranges: false })
    const lines = available.filter(c => `/${indexPath(c.name)}` === path)
      .map(c => JSON.stringify({ name: c.name, vers: c.version, deps: [], cksum: c.cksum, features: {}, yanked: false }))
    if (!lines.length) return void notFound()
    sendBody(request, response, Buffer.from(`${lines.join('\n')}\n`), { type: 'text/plain', fault: pageFault, ranges: false })
  }
  const server = await startFaultServer({ isFile: path => DOWNLOAD.test(path), respond, errorType: 'text/plain' }, options.fault)
  return { url: server.baseUrl, port: server.port, requests: server.requests, authorizations: server.authorizations, setFault: server.setFault, bytesSent: server.bytesSent, close: server.close }
}
