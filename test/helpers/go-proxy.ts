import { createServer } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { strToU8, zipSync } from 'fflate'
import type { Fault } from './fake-npm-registry.js'

/**
 * A Go module proxy on 127.0.0.1 serving one module, built at test time (the GOPROXY protocol: @v/list, .info,
 * .mod, .zip with every file under `<module>@<version>/`). https://go.dev/ref/mod#goproxy-protocol
 */
export interface GoProxy {
  url: string
  requests: string[]
  close(): Promise<void>
}

export async function startGoProxy(module: string, version: string, fault: Fault = { kind: 'ok' }): Promise<GoProxy> {
  const goMod = `module ${module}\n\ngo 1.18\n`
  const zip = Buffer.from(zipSync({
    [`${module}@${version}/go.mod`]: strToU8(goMod),
    [`${module}@${version}/hello.go`]: strToU8('package hello\n\nfunc Answer() int { return 42 }\n'),
  }))
  const files: Record<string, Buffer | string> = {
    [`/${module}/@v/list`]: `${version}\n`,
    [`/${module}/@v/${version}.info`]: JSON.stringify({ Version: version, Time: '2024-01-01T00:00:00Z' }),
    [`/${module}/@v/${version}.mod`]: goMod,
    [`/${module}/@v/${version}.zip`]: zip,
  }
  const sockets = new Set<Socket>()
  const requests: string[] = []
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname
    requests.push(path)
    if (fault.kind === 'blackhole') return
    if (fault.kind === 'reset') return void request.socket.resetAndDestroy()
    if (fault.kind === 'status') return void response.writeHead(fault.status).end(`HTTP ${fault.status} from the local test proxy\n`)
    const body = files[path]
    if (body === undefined) return void response.writeHead(404).end('not found\n')
    response.writeHead(200).end(body)
  })
  server.on('connection', socket => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise(resolve => {
      for (const socket of sockets) socket.destroy()
      server.close(() => resolve())
    }),
  }
}
