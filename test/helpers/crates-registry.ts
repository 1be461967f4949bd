import { createHash } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { Fault } from './fake-npm-registry.js'
import { gzippedTar } from './npm-tarball.js'

/**
 * A sparse cargo registry on 127.0.0.1 (config.json, index files, .crate downloads), built at test time.
 * https://doc.rust-lang.org/cargo/reference/registry-index.html
 */
export interface CratesRegistry {
  /** The index URL, with the trailing slash cargo needs: `http://127.0.0.1:<port>/`. */
  url: string
  requests: string[]
  close(): Promise<void>
}

function indexPath(name: string): string {
  return name.length <= 2 ? `${name.length}/${name}` : name.length === 3 ? `3/${name[0]}/${name}` : `${name.slice(0, 2)}/${name.slice(2, 4)}/${name}`
}

/** `answer`: what its one function returns; another number makes other bytes under the same name and version. */
export function buildCrate(name: string, version: string, answer = 42): { name: string; version: string; bytes: Buffer; cksum: string } {
  const root = `${name}-${version}`
  const bytes = gzippedTar({
    [`${root}/Cargo.toml`]: `[package]\nname = "${name}"\nversion = "${version}"\nedition = "2021"\n`,
    [`${root}/src/lib.rs`]: `pub fn answer() -> u32 { ${answer} }\n`,
  })
  return { name, version, bytes, cksum: createHash('sha256').update(bytes).digest('hex') }
}

/** `fault` applies to every request; `downloads` to the `.crate` downloads alone. */
export async function startCratesRegistry(crates: ReturnType<typeof buildCrate>[], fault: Fault = { kind: 'ok' }, downloads: Fault = { kind: 'ok' }): Promise<CratesRegistry> {
  const sockets = new Set<Socket>()
  const requests: string[] = []
  let base = ''
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname
    requests.push(path)
    if (fault.kind === 'blackhole') return
    if (fault.kind === 'reset') return void request.socket.resetAndDestroy()
    if (fault.kind === 'status') return void response.writeHead(fault.status).end(`HTTP ${fault.status} from the local test registry\n`)
    if (path.startsWith('/dl/') && downloads.kind === 'status') return void response.writeHead(downloads.status).end(`HTTP ${downloads.status} from the local test registry\n`)
    if (path === '/config.json') return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ dl: `${base}dl`, api: null }))
    const download = /^\/dl\/([^/]+)\/([^/]+)\/download$/.exec(path)
    const crate = download ? crates.find(c => c.name === download[1] && c.version === download[2]) : undefined
    // With its length, as static.crates.io sends it (the relay checks a file's digest when it knows where the file ends).
    if (crate) return void response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(crate.bytes.length) }).end(crate.bytes)
    const lines = crates.filter(c => `/${indexPath(c.name)}` === path)
      .map(c => JSON.stringify({ name: c.name, vers: c.version, deps: [], cksum: c.cksum, features: {}, yanked: false }))
    if (lines.length) return void response.writeHead(200, { 'content-type': 'text/plain' }).end(`${lines.join('\n')}\n`)
    response.writeHead(404).end('not found\n')
  })
  server.on('connection', socket => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  return {
    url: base,
    requests,
    close: () => new Promise(resolve => {
      for (const socket of sockets) socket.destroy()
      server.close(() => resolve())
    }),
  }
}
