import { createHash, randomBytes } from 'node:crypto'
import { afterEach } from 'vitest'
import { startFaultServer, type FaultChoice, type FaultServer } from '../../src/demo/fault-server.js'
import { sendBody } from '../../src/demo/send-body.js'

/** A package file of a test channel: random bytes (the relay and the replayed client check digests, not contents). */
export interface ChannelPackage {
  name: string
  version: string
  subdir: 'linux-64' | 'noarch'
  depends: string[]
  filename: string
  bytes: Buffer
  sha256: string
}

export function channelPackage(name: string, version: string, options: { subdir?: ChannelPackage['subdir']; depends?: string[]; size?: number } = {}): ChannelPackage {
  const bytes = randomBytes(options.size ?? 200_000)
  const subdir = options.subdir ?? 'linux-64'
  return { name, version, subdir, depends: options.depends ?? [], filename: `${name}-${version}-h0_0.conda`, bytes, sha256: createHash('sha256').update(bytes).digest('hex') }
}

export interface ChannelServerOptions {
  /** The channel name under the server's root: `conda-forge` → `/conda-forge/<subdir>/repodata.json`. */
  channel: string
  packages: ChannelPackage[]
  fault?: FaultChoice
  /** Files (`name==version`) this server does not list or serve: a lagging mirror. */
  missing?: string[]
  /** Serve a `repodata.json.zst` beside each repodata.json (default true, as real channels do). */
  zst?: boolean
}

export interface ChannelServer extends FaultServer {
  /** The channel alias: `http://127.0.0.1:<port>/`. */
  url: string
}

/** repodata.json of one subdir, as conda-index writes it (packages.conda for `.conda` files). */
export function repodataOf(packages: readonly ChannelPackage[], subdir: string): string {
  const entries = Object.fromEntries(packages.filter(entry => entry.subdir === subdir).map(entry => [entry.filename, {
    build: 'h0_0', build_number: 0, depends: entry.depends, license: 'MIT', md5: createHash('md5').update(entry.bytes).digest('hex'),
    name: entry.name, sha256: entry.sha256, size: entry.bytes.length, subdir, timestamp: 1_700_000_000_000, version: entry.version,
  }]))
  return JSON.stringify({ info: { subdir }, packages: {}, 'packages.conda': entries, removed: [], repodata_version: 1 })
}

/**
 * A conda channel on 127.0.0.1 with fault injection: `<channel>/<subdir>/repodata.json` (ETag, gzip, as
 * conda.anaconda.org serves it), a `repodata.json.zst` beside it (real channels have one: the relay must not take it
 * anyway), `channeldata.json`, and the packages, with Range.
 */
export async function startChannelServer(options: ChannelServerOptions): Promise<ChannelServer> {
  const missing = new Set(options.missing ?? [])
  const listed = options.packages.filter(entry => !missing.has(`${entry.name}==${entry.version}`))
  const prefix = `/${options.channel}/`
  const server = await startFaultServer({
    isFile: path => /\.(?:conda|tar\.bz2)$/.test(path),
    errorType: 'text/plain',
    respond(path, fault, response, _base, request) {
      const rest = path.startsWith(prefix) ? path.slice(prefix.length) : ''
      const [subdir, file] = rest.split('/')
      const pkg = listed.find(entry => entry.subdir === subdir && entry.filename === file)
      if (pkg) return sendBody(request, response, fault.kind === 'corrupt' ? corrupted(pkg.bytes) : pkg.bytes, { type: 'application/octet-stream', fault, ranges: true })
      const page = (text: string) => sendBody(request, response, Buffer.from(text), { type: 'application/json', fault: fault.kind === 'truncate' ? { kind: 'ok' } : fault, ranges: false, page: true })
      if (rest === 'channeldata.json') return page(JSON.stringify({ channeldata_version: 1, packages: {}, subdirs: ['linux-64', 'noarch'] }))
      if ((subdir === 'linux-64' || subdir === 'noarch') && file === 'repodata.json') return page(repodataOf(listed, subdir))
      // Not a zstd stream: a relay that passed it on would hand the tool something it cannot decompress.
      if (options.zst !== false && (subdir === 'linux-64' || subdir === 'noarch') && file === 'repodata.json.zst') return sendBody(request, response, Buffer.from('not zstd'), { type: 'application/octet-stream', fault, ranges: false })
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found\n')
    },
  }, options.fault)
  return Object.assign(server, { url: server.baseUrl })
}

/** The same length, every 97th byte of the second half flipped: a copy that fails its sha256. */
function corrupted(bytes: Buffer): Buffer {
  const copy = Buffer.from(bytes)
  for (let i = Math.floor(copy.length / 2); i < copy.length; i += 97) copy[i] = copy[i]! ^ 0xff
  return copy
}

/** Channel servers closed after each test. */
export function channelServers(defaults: Partial<ChannelServerOptions> = {}): (options?: Partial<ChannelServerOptions>) => Promise<ChannelServer> {
  const servers: ChannelServer[] = []
  afterEach(async () => {
    await Promise.all(servers.splice(0).map(server => server.close()))
  })
  return async (options = {}) => {
    const started = await startChannelServer({ channel: 'conda-forge', packages: [], ...defaults, ...options })
    servers.push(started)
    return started
  }
}
