// A process of its own for bench/relay.mjs, so that what it measures (throughput, peak memory) is one program's:
//   node relay-child.mjs file <bytes>            serves a PEP 503 page and one file of <bytes> (Range honoured);
//   node relay-child.mjs relay <json options>    runs a relay (dist/index.js startRelay) in front of sources;
//   node relay-child.mjs bare <registry url>     the least any relay in Node does: a keep-alive proxy that points
//                                                 a packument's tarball links at itself and pipes everything else.
// Prints one JSON line (its URL, the file's sha256, its own start time) and runs until its stdin closes.
import { createHash } from 'node:crypto'
import { Agent, createServer, request as httpRequest } from 'node:http'

const [mode, arg] = process.argv.slice(2)
const BLOCK = Buffer.alloc(1 << 20)
for (let i = 0, state = 0x9e3779b9; i < BLOCK.length; i++) {
  state ^= state << 13; state ^= state >>> 17; state ^= state << 5
  BLOCK[i] = state & 0xff
}

/** The file: 1 MiB of noise repeated, streamed with back-pressure, never held whole. */
function stream(response, from, to) {
  let at = from
  const pump = () => {
    while (at < to) {
      const offset = at % BLOCK.length
      const chunk = BLOCK.subarray(offset, Math.min(BLOCK.length, offset + (to - at)))
      at += chunk.length
      if (!response.write(chunk)) return void response.once('drain', pump)
    }
    response.end()
  }
  pump()
}

if (mode === 'file') {
  const size = Number(arg)
  const hash = createHash('sha256')
  for (let at = 0; at < size; at += BLOCK.length) hash.update(BLOCK.subarray(0, Math.min(BLOCK.length, size - at)))
  const sha256 = hash.digest('hex')
  const server = createServer((request, response) => {
    if (request.url.startsWith('/simple/')) return void response.writeHead(200, { 'content-type': 'text/html' }).end(`<a href="/files/big-1.0-py3-none-any.whl#sha256=${sha256}">big</a>`)
    const range = /^bytes=(\d+)-$/.exec(request.headers.range ?? '')
    const from = range ? Number(range[1]) : 0
    response.writeHead(range ? 206 : 200, { 'content-type': 'application/octet-stream', 'content-length': String(size - from), ...(range && { 'content-range': `bytes ${from}-${size - 1}/${size}` }) })
    stream(response, from, size)
  })
  server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ url: `http://127.0.0.1:${server.address().port}/`, sha256 })))
} else if (mode === 'bare') {
  const target = new URL(arg)
  const agent = new Agent({ keepAlive: true })
  let self
  const server = createServer((request, response) => {
    const upstream = httpRequest({ host: target.hostname, port: target.port, path: request.url, method: request.method, headers: { ...request.headers, host: target.host }, agent }, answer => {
      if (!/json/.test(answer.headers['content-type'] ?? '')) {
        response.writeHead(answer.statusCode, answer.headers)
        return void answer.pipe(response)
      }
      const chunks = []
      answer.on('data', chunk => chunks.push(chunk)).on('end', () => {
        const body = Buffer.from(Buffer.concat(chunks).toString('utf8').replaceAll(target.href, self))
        response.writeHead(answer.statusCode, { ...answer.headers, 'content-length': String(body.length) }).end(body)
      })
    })
    upstream.on('error', () => response.destroy())
    request.pipe(upstream)
  })
  server.keepAliveTimeout = 65_000
  server.listen(0, '127.0.0.1', () => {
    self = `http://127.0.0.1:${server.address().port}/`
    console.log(JSON.stringify({ url: self }))
  })
} else {
  const options = JSON.parse(arg)
  const { startRelay } = await import('../dist/index.js')
  const started = performance.now()
  const relay = await startRelay(options)
  const startMs = performance.now() - started
  console.log(JSON.stringify({ base: relay.base, indexUrl: relay.indexUrl, startMs }))
}
process.stdin.on('end', () => process.exit(0)).resume()
