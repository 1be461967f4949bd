import { execFileSync } from 'node:child_process'
import { createServer as createHttps } from 'node:https'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { diagnose } from '../../../src/diagnose/index.js'
import { createProbe, failureOfCode } from '../../../src/retry/probe.js'
import { createAliveCheck } from '../../../src/retry/hedge-watch.js'
import { IndexAnswers } from '../../../src/retry/index-answers.js'
import type { RunPlan } from '../../../src/plan/types.js'
import { adviceSubject } from '../../../src/diagnose/remedies.js'
import { adviceFor } from '../../../src/tools/advice.js'
import { fixture } from '../diagnose/rule-cases.js'
import type { Source } from '../../../src/retry/types.js'
import { TOOLS } from '../../../src/tools/index.js'

// pip's words after a 404, a 401, a 429 or a 503 of the page alike: no proof of anything.
const NOT_FOUND = diagnose({ tool: 'pip', output: 'ERROR: Could not find a version that satisfies the requirement demo-pkg (from versions: none)\nERROR: No matching distribution found for demo-pkg' })
/** The same, with the extra index pip names after its own (`Looking in indexes:`). */
const withExtra = (extra: string) => diagnose({ tool: 'pip', output: `Looking in indexes: http://127.0.0.1:1/simple, ${extra}\nERROR: Could not find a version that satisfies the requirement demo-pkg (from versions: none)\nERROR: No matching distribution found for demo-pkg` })
const servers: Server[] = []
afterEach(() => servers.splice(0).forEach(server => server.close()))

async function listen(server: Server): Promise<number> {
  servers.push(server)
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

const source = (indexUrl: string): Source => ({ id: 'primary', url: undefined, indexUrl, kind: 'private', label: 'test' })
// The bound applies to an answer: a local server answers in milliseconds, even on a busy machine within seconds.
const probe = createProbe(TOOLS.pip, {}, 10_000)
/** A short bound, for the cases about an index that never answers. */
const impatientProbe = createProbe(TOOLS.pip, {}, 500)

describe('asking the index when pip only says "no matching distribution"', () => {
  it.each([
    [503, 'server_error'], [429, 'rate_limited'], [403, 'http_auth'], [401, 'http_auth'],
  ])('HTTP %i on the project page is %s', async (status, category) => {
    const port = await listen(createServer((_, response) => response.writeHead(status, { 'retry-after': '7' }).end()))
    const result = await probe(source(`http://127.0.0.1:${port}/simple`), NOT_FOUND)
    expect(result?.category).toBe(category)
    if (status === 429) expect(result?.facts.retryAfterSeconds).toBe(7)
  })

  it('reads pip\'s words as unproven: `other`, naming the package to ask about', () => {
    expect(NOT_FOUND).toMatchObject({ category: 'other', ruleId: 'pip-nothing-listed', facts: { package: 'demo-pkg' } })
  })

  it('a 404 from the only index proves the package missing, and says how', async () => {
    const port = await listen(createServer((_, response) => response.writeHead(404).end()))
    const result = await probe(source(`http://127.0.0.1:${port}/simple`), NOT_FOUND)
    expect(result).toMatchObject({ category: 'package_not_found', facts: { absence: 'status', status: 404 }, summary: `127.0.0.1:${port} has no demo-pkg (HTTP 404 for its page)` })
    expect(result?.evidence[0]).toBe(`resilient asked 127.0.0.1:${port} for /simple/demo-pkg/: HTTP 404`)
  })

  it('asks nothing more of a package already proven missing (a listing without the version): the 404 adds nothing', async () => {
    const port = await listen(createServer((_, response) => response.writeHead(404).end()))
    const listed = diagnose({ tool: 'pip', output: 'ERROR: Could not find a version that satisfies the requirement demo-pkg==2.0 (from versions: 1.0)' })
    expect(listed.category).toBe('package_not_found')
    expect(await probe(source(`http://127.0.0.1:${port}/simple`), listed)).toBeUndefined()
  })

  it('calls an index that never answers a timeout', async () => {
    const port = await listen(createServer(() => {}))
    expect((await impatientProbe(source(`http://127.0.0.1:${port}/simple`), NOT_FOUND))?.category).toBe('timeout')
  })

  it('leaves the verdict to the tool when only Node distrusts the certificate (the tool may trust it)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'probe-tls-'))
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' })
    const server = createHttps({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (_, response) => response.writeHead(404).end())
    const port = await listen(server as unknown as Server)
    expect(await probe(source(`https://127.0.0.1:${port}/simple`), NOT_FOUND)).toBeUndefined()
  })

  it('does not ask behind a proxy: Node would bypass it', async () => {
    const port = await listen(createServer((_, response) => response.writeHead(503).end()))
    const viaProxy = createProbe(TOOLS.pip, { HTTP_PROXY: 'http://proxy.example:3128' }, 500)
    expect(await viaProxy(source(`http://127.0.0.1:${port}/simple`), NOT_FOUND)).toBeUndefined()
  })
})

describe('the probe verdict wins over the text', () => {
  it('brings the next step of the cause it found, not the missing package\'s', async () => {
    const port = await listen(createServer((_, response) => response.writeHead(503).end()))
    const result = await probe(source(`http://127.0.0.1:${port}/simple`), NOT_FOUND)
    expect(NOT_FOUND.nextStep).not.toMatch(/Check the name/)
    expect(result).toMatchObject({ category: 'server_error', retryable: true, remedy: { kind: 'wait' } })
    expect(result?.nextStep).not.toMatch(/Check the name/)
  })
})

describe('a probe that fails keeps its error code, and is diagnosed by it', () => {
  it('a name that does not resolve is DNS, with the DNS advice', async () => {
    const result = await probe(source('http://no-such-index.invalid/simple'), NOT_FOUND)
    expect(result).toMatchObject({ category: 'dns', summary: expect.stringMatching(/^the name no-such-index\.invalid did not resolve \((ENOTFOUND|EAI_AGAIN)\)$/), facts: { errno: expect.stringMatching(/ENOTFOUND|EAI_AGAIN/) } })
    expect(result!.evidence[0]).toMatch(/resilient asked no-such-index\.invalid for \/simple\/demo-pkg\/: getaddrinfo (ENOTFOUND|EAI_AGAIN)/)
    expect(adviceFor(TOOLS.pip, adviceSubject(result!)!)).toMatch(/The name no-such-index\.invalid did not resolve\. Check DNS/)
  })

  it('a port nobody listens on is a refused connection, with advice about the address and port', async () => {
    const port = await listen(createServer())
    servers.pop()!.close()
    await new Promise(resolve => setTimeout(resolve, 50))
    const result = await probe(source(`http://127.0.0.1:${port}/simple`), NOT_FOUND)
    expect(result).toMatchObject({ category: 'connection', summary: `127.0.0.1:${port} refused the connection (ECONNREFUSED)`, facts: { errno: 'ECONNREFUSED' } })
    expect(adviceFor(TOOLS.pip, adviceSubject(result!)!)).toMatch(new RegExp(`^127\\.0\\.0\\.1:${port} refused the connection: nothing accepts connections at that address and port`))
  })

  it('a dropped connection is a reset', async () => {
    const port = await listen(createServer(request => request.socket.destroy()))
    const result = await probe(source(`http://127.0.0.1:${port}/simple`), NOT_FOUND)
    expect(result).toMatchObject({ category: 'connection', facts: { errno: expect.stringMatching(/ECONNRESET|UND_ERR_SOCKET/) } })
  })

  it.each([
    ['ENETUNREACH', 'connection', /cannot be reached from this machine \(ENETUNREACH\)/, /no route to r\.test:8443 from this machine/i],
    ['EHOSTUNREACH', 'connection', /cannot be reached from this machine \(EHOSTUNREACH\)/, /No route to the host r\.test:8443/],
    ['EAI_AGAIN', 'dns', /did not resolve \(EAI_AGAIN\)/, /did not resolve\. Check DNS/],
  ])('%s is %s', (code, category, summary, advice) => {
    const failed = failureOfCode(code, 'r.test:8443', 'r.test')
    expect(failed).toMatchObject({ category, summary: expect.stringMatching(summary) })
    expect(adviceFor(TOOLS.pip, { cause: failed.category, host: 'r.test:8443', errno: code })).toMatch(advice)
  })
})

describe('pip ignoring a plain-HTTP index on another host', () => {
  it('gets its own fix (https or --trusted-host), never the CA-bundle advice of a certificate failure', () => {
    const diagnosis = diagnose(fixture('pip/captured-ssl-untrusted-host'))
    expect(diagnosis.ruleId).toBe('pip-untrusted-host')
    expect(adviceSubject(diagnosis)).toBeUndefined()
    expect(diagnosis.nextStep).toMatch(/over HTTPS.*--trusted-host/)
    expect(diagnosis.nextStep).not.toMatch(/--cert|CA bundle/)
  })
})

describe('an index that lists the package the tool did not find: a transient failure of that index', () => {
  const page = '<a href="/files/demo_pkg-1.0-py3-none-any.whl#sha256=00">demo_pkg-1.0-py3-none-any.whl</a><br/>'
  const listing = () => listen(createServer((_, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(page)))

  it('retries the index, naming what resilient saw', async () => {
    const port = await listing()
    const result = await probe(source(`http://127.0.0.1:${port}/simple`), NOT_FOUND)
    expect(result).toMatchObject({ category: 'server_error', ruleId: 'resilient-index-probe', retryable: true, facts: { status: 200 } })
    expect(result?.summary).toMatch(/failed transiently: the tool found no demo-pkg there, yet resilient's own request got it listed/)
    expect(result?.evidence[0]).toBe(`resilient asked 127.0.0.1:${port} for /simple/demo-pkg/: HTTP 200, listing demo-pkg`)
  })

  it('the second time on the same source, keeps the tool\'s verdict with the evidence (its files may not fit here)', async () => {
    const port = await listing()
    const result = await probe(source(`http://127.0.0.1:${port}/simple`), NOT_FOUND, true)
    expect(result).toMatchObject({ category: 'other', ruleId: 'pip-nothing-listed' })
    expect(result?.evidence.at(-1)).toMatch(/HTTP 200, listing demo-pkg \(again\)$/)
  })

  it('keeps "not found" when the page lists other versions only', async () => {
    const port = await listing()
    const wanted = diagnose({ tool: 'pip', output: 'ERROR: Could not find a version that satisfies the requirement demo-pkg==2.0 (from versions: 1.0)\nERROR: No matching distribution found for demo-pkg==2.0' })
    expect(await probe(source(`http://127.0.0.1:${port}/simple`), wanted)).toBeUndefined()
  })

  it('reads a constraint conflict the same way (pip -c with a failed page)', async () => {
    const port = await listing()
    const output = 'ERROR: Cannot install demo-pkg because these package versions have conflicting dependencies.\nThe conflict is caused by:\n    The user requested demo-pkg\n    The user requested (constraint) demo-pkg==1.0\nERROR: ResolutionImpossible: for help visit https://pip.pypa.io/'
    const conflict = diagnose({ tool: 'pip', output })
    expect(conflict.category).toBe('resolution_conflict')
    expect((await probe(source(`http://127.0.0.1:${port}/simple`), conflict))?.category).toBe('server_error')
  })
})

describe('an extra index named by pip (a private --extra-index-url answering 503 to everything)', () => {
  const answering = (status: number) => listen(createServer((_, response) => response.writeHead(status).end()))

  it('its 5xx is a server error on it, never a missing package; no mirror stands in for it, so the run stops', async () => {
    const [index, extra] = [await answering(404), await answering(503)]
    const result = await probe(source(`http://127.0.0.1:${index}/simple`), withExtra(`http://127.0.0.1:${extra}/simple/`))
    expect(result).toMatchObject({ category: 'server_error', facts: { host: `127.0.0.1:${extra}`, status: 503 }, remedy: { kind: 'give-up' }, retryable: false })
    expect(result?.nextStep).toMatch(new RegExp(`127\\.0\\.0\\.1:${extra} is an extra index of this command`))
    expect(result?.nextStep).not.toMatch(/Check the name/)
  })

  it('a 404 from the index is no proof while an extra index was read too: asked without its credentials, its 404 and 401 prove nothing', async () => {
    for (const status of [404, 401]) {
      const [index, extra] = [await answering(404), await answering(status)]
      expect(await probe(source(`http://127.0.0.1:${index}/simple`), withExtra(`http://127.0.0.1:${extra}/simple/`))).toBeUndefined()
    }
  })

  it('an extra index printed with masked credentials is never asked', async () => {
    let asked = 0
    const extra = await listen(createServer((_, response) => { asked++; response.writeHead(503).end() }))
    const index = await answering(404)
    expect(await probe(source(`http://127.0.0.1:${index}/simple`), withExtra(`http://user:****@127.0.0.1:${extra}/simple/`))).toBeUndefined()
    expect(asked).toBe(0)
  })
})

describe('what the probe heard, shared with the check whether a source answers at all', () => {
  it('an index silent to the probe is not asked again by the alive check, which answers at once', async () => {
    const port = await listen(createServer(() => {}))
    const index = `http://127.0.0.1:${port}/simple`
    const answers = new IndexAnswers()
    const probed = await createProbe(TOOLS.pip, {}, 300, answers)(source(index), NOT_FOUND)
    expect(probed?.category).toBe('timeout')
    expect(answers.recent(index)).toBe(false)
    let asked = 0
    const askCounting = async () => { asked++; return 'answered' as const }
    const plan = { invocation: { adapter: TOOLS.pip, args: [] }, proxies: [] } as unknown as RunPlan
    const alive = createAliveCheck(plan, {}, askCounting, 5000, answers)!
    const started = Date.now()
    expect(await alive({ ...source(index), kind: 'upstream' })).toBe(false)
    expect(asked).toBe(0)
    expect(Date.now() - started).toBeLessThan(1000)
  })

  it('an answer of any status counts as answering; what is older than a few seconds is forgotten', async () => {
    let now = 0
    const answers = new IndexAnswers(() => now, 10_000)
    answers.record('http://127.0.0.1:9/simple/', true)
    expect(answers.recent('http://127.0.0.1:9/simple')).toBe(true)
    now = 11_000
    expect(answers.recent('http://127.0.0.1:9/simple')).toBeUndefined()
  })
})
