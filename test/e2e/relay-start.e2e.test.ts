import { request as httpRequest, type IncomingMessage } from 'node:http'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { withRelay } from '../../src/plan/relay.js'
import { startRelayForRun, type RunRelay } from '../../src/run/relay.js'
import { buildWheel } from '../../src/demo/wheel.js'
import { pip } from '../../src/tools/pip.js'
import { pypiServers } from '../helpers/e2e-setup.js'
import { planIn } from '../helpers/plan-helpers.js'

// The relay as a run starts it (src/run/relay.ts): its socket first, for the tool to start at once with its
// address; its code once the tool runs. What the tool asks in between waits, and is served.
const server = pypiServers({ wheels: [buildWheel('demo-pkg', '1.0')] })
const SECRET = 's'.repeat(43)
const cwd = mkdtempSync(join(tmpdir(), 'resilient-relay-start-'))

async function runRelay(index: string, port = 0): Promise<RunRelay> {
  const plan = withRelay(planIn(pip, 'download demo-pkg', cwd, { pypi: { index, mirrors: [] } }), {
    enabled: true, address: () => ({ host: '127.0.0.1', port, secret: SECRET }), trust: { unverified: [] }, secrets: { scratch: { path: cwd }, env: {} },
  })
  expect(plan.attempts[0]!.via).toBe('relay')
  const relay = await startRelayForRun(plan, { env: {}, secrets: { scratch: { path: cwd }, env: {} }, say: () => {} })
  return relay!
}

const portOf = (relay: RunRelay) => relay.plan.relay!.port

/** The tool's request for the project page, as pip sends it (the relay's secret in a Basic header). */
function askPage(port: number): { answer: Promise<{ status: number; body: string }>; answered: () => boolean } {
  let done = false
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path: '/simple/demo-pkg/', headers: { authorization: `Basic ${Buffer.from(`resilient:${SECRET}`).toString('base64')}` } }, (response: IncomingMessage) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', chunk => { body += chunk })
      response.on('end', () => {
        done = true
        resolve({ status: response.statusCode!, body })
      })
    })
    request.on('error', reject)
    request.end()
  })
  return { answer, answered: () => done }
}

describe('the relay of a run, started before its code is loaded', () => {
  it('holds a request that comes before the tool has started, and serves it once the relay\'s code is loaded', async () => {
    const index = await server()
    const relay = await runRelay(index.url)
    try {
      const early = askPage(portOf(relay))
      // Nothing answers it while the relay's code is not loaded: the request waits on the bound socket.
      await new Promise(resolve => setTimeout(resolve, 300))
      expect(early.answered()).toBe(false)
      expect(relay.served!()).toMatchObject({ requests: 0, open: 1 })
      relay.toolStarted()
      const { status, body } = await early.answer
      expect(status).toBe(200)
      // The page as the relay sends it: its file links point at the relay.
      expect(body).toContain(`http://127.0.0.1:${portOf(relay)}/`)
      expect(body).toContain('demo_pkg-1.0-py3-none-any.whl')
      // A later request goes straight through, and both are booked for the source.
      expect((await askPage(portOf(relay)).answer).status).toBe(200)
      const tally = await relay.tally()
      expect(Object.values(tally).map(host => host.served)).toEqual([2])
    } finally {
      await relay.close()
    }
  })

  it('closes with a request held and the code never loaded (no tool ran): the request ends, nothing waits', async () => {
    const index = await server()
    const relay = await runRelay(index.url)
    const held = askPage(portOf(relay))
    await new Promise(resolve => setTimeout(resolve, 100))
    await relay.close()
    await expect(held.answer).rejects.toThrow(/socket hang up|ECONNRESET/)
  })

  it('takes another port when the planned one is busy, and the tool\'s attempt names the port it got', async () => {
    const index = await server()
    const first = await runRelay(index.url)
    try {
      const second = await runRelay(index.url, portOf(first))
      try {
        expect(portOf(second)).not.toBe(portOf(first))
        expect(second.plan.attempts[0]!.command.argv.join(' ')).toContain(`127.0.0.1:${portOf(second)}/simple/`)
        second.toolStarted()
        expect((await askPage(portOf(second)).answer).status).toBe(200)
      } finally {
        await second.close()
      }
    } finally {
      await first.close()
    }
  })
})
