import { execa } from 'execa'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { accountCpu, canSampleTrees, createTreeSampler, type CpuTimes } from '../../../src/exec/progress/tree-counters.js'
import { parseSocketBytes } from '../../../src/exec/progress/tree-sockets.js'

// Real processes: what the sampler reads from /proc and ss about a tree it did not start.
const linux = canSampleTrees()
const children: { kill(): void }[] = []
const servers: Server[] = []
afterEach(() => {
  for (const child of children.splice(0)) child.kill()
  for (const server of servers.splice(0)) server.close()
})

function start(file: string, args: string[]) {
  const child = execa(file, args, { reject: false, stdio: 'ignore' })
  children.push(child)
  return child
}

/** A node process that reads 300 kB from a local server, then keeps its socket (and its fd) open a while. */
async function nodeReader() {
  const payload = Buffer.alloc(300_000, 7)
  const server = createServer(socket => socket.end(payload))
  servers.push(server)
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  // allowHalfOpen keeps the socket (and its fd) after the server's FIN, so that a sample sees it.
  const reader = `require('net').connect({ port: ${port}, host: '127.0.0.1', allowHalfOpen: true }).on('data', () => {}).on('end', () => setTimeout(() => {}, 30000))`
  return { payload, child: start(process.execPath, ['-e', reader]) }
}

const wait = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))

/** Python that burns `seconds` of CPU time (not wall time: a loaded machine does not change it). */
const burn = (seconds: number) => `import time\nwhile time.process_time() < ${seconds}: pass`

describe.skipIf(!linux)('createTreeSampler (Linux)', () => {
  it('counts the CPU time of a grandchild', async () => {
    const child = start('sh', ['-c', `python3 -c '${burn(0.6)}'; sleep 30`])
    const sampler = createTreeSampler(child.pid!)
    await sampler.sample()
    let cpu = 0
    for (let i = 0; i < 100 && cpu < 0.5; i++, await wait(100)) cpu = (await sampler.sample()).cpuSeconds
    expect(cpu).toBeGreaterThanOrEqual(0.5)
  })

  // Once sh has reaped python, python's CPU time moves to sh's cutime: it must count once.
  const pythonRunning = async (parent: number) => (await execa('pgrep', ['-P', String(parent), '-x', 'python3'], { reject: false })).exitCode === 0

  it('counts a child seen while it ran once, not again in its parent\'s reaped time', async () => {
    const report = join(mkdtempSync(join(tmpdir(), 'resilient-tree-')), 'cpu')
    // python writes the CPU time it used, as it ends: what the tree's count must come to, once.
    const child = start('sh', ['-c', `python3 -c '${burn(0.8)}\nopen("${report}", "w").write(str(time.process_time()))'; sleep 30`])
    const sampler = createTreeSampler(child.pid!)
    let seen = 0
    for (let i = 0; i < 200 && (seen < 0.3 || await pythonRunning(child.pid!)); i++, await wait(100)) seen = (await sampler.sample()).cpuSeconds
    await wait(500)
    const { cpuSeconds } = await sampler.sample()
    const used = Number(readFileSync(report, 'utf8'))
    expect(cpuSeconds).toBeGreaterThanOrEqual(used * 0.9)
    // Counted twice would be at least `used + seen` (seen >= 0.3 s): half of that margin is left for sh and for
    // python's exit, which process_time() does not see.
    expect(cpuSeconds).toBeLessThan(used + seen / 2)
  })

  it('counts a child that started and ended between two samples (a compiler run)', async () => {
    const done = join(mkdtempSync(join(tmpdir(), 'resilient-tree-')), 'done')
    const child = start('sh', ['-c', `sleep 0.3; python3 -c '${burn(0.5)}'; touch ${done}; sleep 30`])
    const sampler = createTreeSampler(child.pid!)
    await sampler.sample()
    for (let i = 0; i < 300 && !existsSync(done); i++) await wait(100)
    expect((await sampler.sample()).cpuSeconds).toBeGreaterThanOrEqual(0.45)
  })

  it('counts the bytes the tree received over TCP, and only those', async () => {
    const payload = Buffer.alloc(300_000, 7)
    const server = createServer(socket => socket.end(payload))
    servers.push(server)
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as AddressInfo).port
    // Reads the whole payload, then keeps the socket open so that a sample sees it.
    const reader = `import socket, time\ns = socket.create_connection(("127.0.0.1", ${port}))\nn = 0\nwhile True:\n    b = s.recv(65536)\n    if not b: break\n    n += len(b)\nopen("/dev/null").read()\ntime.sleep(30)`
    const child = start('python3', ['-c', reader])
    const sampler = createTreeSampler(child.pid!)
    let counters = await sampler.sample()
    for (let i = 0; i < 100 && counters.bytes < payload.length; i++, await wait(100)) counters = await sampler.sample()
    expect(counters.counter).toBe('tcp')
    // tcp_info counts the FIN as one byte received.
    expect(counters.bytes).toBeGreaterThanOrEqual(payload.length)
    expect(counters.bytes).toBeLessThanOrEqual(payload.length + 1)
  })

  it('falls back to read() counts (rchar) where ss is missing: node reads sockets with read()', async () => {
    const { payload, child } = await nodeReader()
    const path = process.env.PATH
    process.env.PATH = '/nonexistent'
    try {
      const sampler = createTreeSampler(child.pid!)
      let counters = await sampler.sample()
      for (let i = 0; i < 100 && counters.bytes < payload.length; i++, await wait(100)) counters = await sampler.sample()
      expect(counters.counter).toBe('reads')
      expect(counters.bytes).toBeGreaterThanOrEqual(payload.length)
    } finally {
      process.env.PATH = path
    }
  })

  it('through a relay, counts what the relay passed on from the attempt\'s start, not the tree\'s own sockets', async () => {
    const { child } = await nodeReader()
    const relayed = { bytes: 5_000, requests: 2 }
    const sampler = createTreeSampler(child.pid!, () => ({ ...relayed }))
    // No descriptor listings: the relay sees every request, the short ones included.
    expect(sampler.openSockets).toBeUndefined()
    await wait(500)
    relayed.bytes += 1_234
    relayed.requests += 3
    expect(await sampler.sample()).toMatchObject({ bytes: 1_234, counter: 'relay', connections: 3 })
  })

  it('reports nothing but zeros for a process that already ended', async () => {
    const child = start('true', [])
    await child
    expect(await createTreeSampler(child.pid!).sample()).toEqual({ bytes: 0, cpuSeconds: 0, counter: 'tcp', connections: 0 })
  })
})

describe('accountCpu', () => {
  const times = (entries: [number, number, number][]) => new Map(entries.map(([pid, own, reaped]): [number, CpuTimes] => [pid, { own, reaped }]))

  it('counts a child once when its parent reaped it while the sample read the parent (the child\'s stat then fails)', () => {
    const counted = new Map<number, CpuTimes>()
    let total = accountCpu(counted, times([[1, 0, 0], [2, 40, 0]]))
    // Sample 2 listed pid 2, but it was reaped before its stat was read: the parent shows its 80 ticks.
    total += accountCpu(counted, times([[1, 0, 80]]))
    total += accountCpu(counted, times([[1, 0, 80]]))
    expect(total).toBe(80)
  })

  it('lets one sample dip when the child is gone before its parent shows it reaped, and ends right', () => {
    const counted = new Map<number, CpuTimes>()
    const steps = [accountCpu(counted, times([[1, 0, 0], [2, 40, 0]])), accountCpu(counted, times([[1, 0, 0]])), accountCpu(counted, times([[1, 0, 80]]))]
    expect(steps).toEqual([40, -40, 80])
    expect(steps.reduce((a, b) => a + b)).toBe(80)
  })
})

describe('parseSocketBytes', () => {
  // `ss -tinHe` on Linux 6.18 (iproute2 6.1): a closed socket has no inode, one that received nothing no counter.
  const output = [
    'FIN-WAIT-2 0      0      127.0.0.1:18765 127.0.0.1:54672 timer:(timewait,59sec,0) ino:0 sk:1',
    '\t',
    'CLOSE-WAIT 0      0      127.0.0.1:54672 127.0.0.1:18765 ino:130244 sk:2 cgroup:/ -->',
    '\t ts sack bbr wscale:10,10 rto:204 rtt:0.077/0.044 ato:40 mss:32768 cwnd:11 bytes_sent:27 bytes_acked:28 bytes_received:79413 segs_out:7 lastsnd:348 lastrcv:284',
    'ESTAB      0      0      10.0.0.2:40112 151.101.0.223:443 ino:130250 sk:3 cgroup:/ -->',
    '\t ts sack cubic wscale:7,7 rto:216 rtt:15.1/7.5 mss:1448 cwnd:10 bytes_sent:517 bytes_acked:518 segs_out:3',
  ].join('\n')

  it('maps socket inodes to bytes received', () => {
    expect([...parseSocketBytes(output)]).toEqual([[130244, 79413]])
  })
})
