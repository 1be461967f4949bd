import { strToU8, zipSync } from 'fflate'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { startFaultServer, type FaultChoice, type FaultServer } from '../../src/demo/fault-server.js'
import { sendBody } from '../../src/demo/send-body.js'
import { incompressibleBytes } from './incompressible.js'

/**
 * A Go module proxy on 127.0.0.1 with fault injection (src/demo/fault-server.ts), for the relay's go tests: the GOPROXY
 * protocol (go.dev/ref/mod#goproxy-protocol) for one module in several versions, `.zip` files that answer Range
 * requests, and `missing` versions a lagging mirror does not have yet. Files are `.info`/`.mod`/`.zip` of a version.
 */
export interface GoModule {
  path: string
  /** Version → its files, built once and served the same by every proxy (a resume splices two proxies' bytes). */
  versions: Map<string, { info: string; mod: string; zip: Buffer }>
}

/**
 * A module whose zips hold `paddingBytes` of incompressible data (stored, not deflated), for transfers that take a
 * while; `tampered`: a well-formed zip whose source differs, as a mirror serving other bytes under the same version.
 */
export function buildGoModule(path: string, versions: readonly string[], paddingBytes = 0, tampered = false): GoModule {
  const built = new Map<string, { info: string; mod: string; zip: Buffer }>()
  for (const version of versions) {
    const mod = `module ${path}\n\ngo 1.18\n`
    const padding = incompressibleBytes(paddingBytes, 0x9e3779b9 ^ version.length)
    const zip = Buffer.from(zipSync({
      [`${path}@${version}/go.mod`]: strToU8(mod),
      [`${path}@${version}/hello.go`]: strToU8(`package hello\n\n// Version is this module's version.\nconst Version = "${version}"\n${tampered ? 'var Tampered = true\n' : ''}`),
      ...(paddingBytes && { [`${path}@${version}/padding.bin`]: padding }),
    }, { level: 0, mtime: new Date('2024-01-01T00:00:00Z') }))
    built.set(version, { info: JSON.stringify({ Version: version, Time: '2024-01-01T00:00:00Z' }), mod, zip })
  }
  return { path, versions: built }
}

export interface GoModuleProxy extends Omit<FaultServer, 'baseUrl'> {
  /** The GOPROXY URL, without a trailing slash. */
  url: string
}

const FILE = /\/@v\/(v[^/]+)\.(info|mod|zip)$/

export async function startGoModuleProxy(modules: readonly GoModule[], options: { fault?: FaultChoice; missing?: string[] } = {}): Promise<GoModuleProxy> {
  const missing = new Set(options.missing ?? [])
  const respond = (path: string, fault: Parameters<typeof sendBody>[3]['fault'], response: ServerResponse, _base: string, request: IncomingMessage) => {
    const module = modules.find(candidate => path.startsWith(`/${candidate.path}/@`))
    const versions = module ? [...module.versions.keys()].filter(version => !missing.has(version)) : []
    const file = FILE.exec(path)
    let body: Buffer | undefined
    let type = 'text/plain; charset=utf-8'
    if (module && path === `/${module.path}/@v/list`) body = Buffer.from(versions.map(version => `${version}\n`).join(''))
    else if (module && path === `/${module.path}/@latest`) body = versions.length ? Buffer.from(module.versions.get(versions.at(-1)!)!.info) : undefined
    else if (module && file && versions.includes(file[1]!)) {
      const files = module.versions.get(file[1]!)!
      body = file[2] === 'zip' ? files.zip : Buffer.from(file[2] === 'info' ? files.info : files.mod)
      type = file[2] === 'zip' ? 'application/zip' : file[2] === 'info' ? 'application/json' : type
    }
    if (!body) return void response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n')
    const isFile = Boolean(file)
    if (fault.kind === 'corrupt' && file?.[2] === 'zip') {
      body = Buffer.from(body)
      for (let i = Math.floor(body.length / 2); i < body.length; i += 97) body[i] = body[i]! ^ 0xff
    }
    sendBody(request, response, body, { type, fault: isFile || fault.kind !== 'truncate' ? fault : { kind: 'ok' }, ranges: isFile })
  }
  const server = await startFaultServer({ isFile: path => FILE.test(path), respond, errorType: 'text/plain' }, options.fault)
  return { ...server, url: server.baseUrl.replace(/\/$/, '') }
}
