import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { runWhy } from '../../../src/cli/commands/why.js'
import { ResilientError } from '../../../src/errors.js'
import { fixture } from './rule-cases.js'

let printed: string
let directory: string

beforeEach(() => {
  printed = ''
  directory = mkdtempSync(join(tmpdir(), 'resilient-why-'))
  vi.spyOn(process.stdout, 'write').mockImplementation(chunk => {
    printed += String(chunk)
    return true
  })
})
afterEach(() => vi.restoreAllMocks())

function logFile(content: string | Buffer, name = 'build.log'): string {
  const path = join(directory, name)
  writeFileSync(path, content)
  return path
}

async function rejection(promise: Promise<unknown>): Promise<ResilientError> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught)
  expect(error).toBeInstanceOf(ResilientError)
  return error as ResilientError
}

describe('resilient why', () => {
  it('explains a log: category, summary, evidence, whether a retry helps, the next step', async () => {
    expect(await runWhy(logFile(fixture('pip/py-004-timeout').output), {})).toBe(0)
    expect(printed).toContain('pypi.org did not answer in time  [timeout]')
    expect(printed).toContain('tool: pip (guessed from the log) · rule: any-timeout')
    expect(printed).toContain('│ WARNING: Retrying (Retry(total=4')
    expect(printed).toContain('retry or another mirror: can help (retry on another mirror)')
    expect(printed).toContain('next step: Run the command through resilient (resilient pip <args>)')
  })

  it('calls a public index public, and a private one the person\'s own, whose failure no mirror fixes', async () => {
    await runWhy(logFile(fixture('pip/py-004-timeout').output), { json: true })
    expect(JSON.parse(printed)).toMatchObject({ host: 'pypi.org', index: 'public', mirrorCanHelp: true })
    printed = ''
    const own = fixture('pip/py-004-timeout').output.replaceAll('pypi.org', 'pypi.corp.example')
    await runWhy(logFile(own), {})
    expect(printed).toContain('host: pypi.corp.example (your own index)')
    expect(printed).toContain('a retry of pypi.corp.example can help; another mirror cannot')
    expect(printed).not.toMatch(/aliyun|mirrors test|retry on another mirror/)
  })

  it('prints exactly one JSON object with --json', async () => {
    await runWhy(logFile(fixture('uv/py-133-ssl').output), { json: true })
    expect(printed.trim().split('\n')).toHaveLength(1)
    const result = JSON.parse(printed) as Record<string, unknown>
    expect(Object.keys(result).sort()).toEqual(['category', 'evidence', 'host', 'index', 'mirrorCanHelp', 'remedy', 'retryable', 'summary', 'tool'])
    expect(result).toMatchObject({ category: 'ssl', retryable: false, remedy: 'give-up', host: 'pypi.org', tool: 'uv', evidence: ['invalid peer certificate: UnknownIssuer'] })
  })

  it('takes the tool as people write it', async () => {
    await runWhy(logFile(fixture('pip/py-157-ssl').output), { tool: 'pip3', json: true })
    expect(JSON.parse(printed)).toMatchObject({ tool: 'pip', category: 'ssl' })
  })

  it('reads a UTF-16 log written by a PowerShell redirect', async () => {
    const text = fixture('npm/cj-129-rate-limited').output
    await runWhy(logFile(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])), { json: true })
    expect(JSON.parse(printed)).toMatchObject({ category: 'rate_limited', tool: 'npm' })
  })

  it('never prints a secret from the log', async () => {
    await runWhy(logFile("HTTP error 403 while getting https://deploy:s3cr3tT0ken@pypi.corp.example/simple/x/\n"), {})
    expect(printed).not.toContain('s3cr3tT0ken')
  })

  it('refuses an unknown tool with a usage error', async () => {
    expect((await rejection(runWhy(logFile('x'), { tool: 'gradle' }))).exitCode).toBe(64)
  })

  it('says an empty log is empty (exit 64)', async () => {
    const error = await rejection(runWhy(logFile(' \n\n'), {}))
    expect([error.exitCode, error.message]).toEqual([64, expect.stringContaining('is empty')])
  })

  it('says a binary file is not a log (exit 64)', async () => {
    const error = await rejection(runWhy(logFile(Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x01, 0x02])), {}))
    expect([error.exitCode, error.message]).toEqual([64, expect.stringContaining('is binary')])
  })

  it('says a missing file is missing (exit 64)', async () => {
    const error = await rejection(runWhy(join(directory, 'nope.log'), {}))
    expect([error.exitCode, error.message]).toEqual([64, expect.stringContaining('does not exist')])
  })
})

describe('resilient why on the wording of every wrapped tool', () => {
  it('takes the failing host from the error line, not from yarn\'s "info Visit https://yarnpkg.com" line', async () => {
    await runWhy(logFile(fixture('yarn/captured-connection-reset').output), {})
    expect(printed).toContain('[connection]')
    expect(printed).not.toContain('yarnpkg.com')
  })
  it('calls a refused local registry (localhost:4873) a connection failure, not a proxy, when no proxy is configured', async () => {
    vi.stubEnv('HTTPS_PROXY', '')
    vi.stubEnv('https_proxy', '')
    await runWhy(logFile(fixture('yarn/captured-connection-refused-local').output), {})
    expect(printed).toContain('[connection]')
    // A registry on this machine is the person's own: a run tries it again, never a public mirror.
    expect(printed).toMatch(/retry or another mirror: a retry of 127\.0\.0\.1 can help; another mirror cannot/)
    vi.unstubAllEnvs()
  })
  it('calls it the proxy when the environment configures that proxy', async () => {
    vi.stubEnv('HTTPS_PROXY', 'http://127.0.0.1:4873')
    await runWhy(logFile(fixture('yarn/captured-connection-refused-local').output), {})
    expect(printed).toContain('[proxy]')
    vi.unstubAllEnvs()
  })
  it('never suggests a tool it does not wrap (a Node stack trace guessed as "node")', async () => {
    const output = "node:internal/process/promises:288\nError: connect ETIMEDOUT 104.16.3.35:443\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)\n"
    await runWhy(logFile(output), {})
    expect(printed).toContain('[timeout]')
    expect(printed).not.toMatch(/resilient node\b/)
  })
  it('names the tool from a tool-specific rule instead of "tool: unknown"', async () => {
    await runWhy(logFile('error Couldn\'t find any versions for "left-pad" that matches "^9.0.0"\n'), {})
    expect(printed).toContain('rule: yarn-no-matching-version')
    expect(printed).not.toContain('tool: unknown')
    expect(printed).toContain("tool: yarn or yarn-berry (read from the rule's wording)")
  })
  it("reads pnpm's errors, which pnpm prints on stdout (the captured stdout alone)", async () => {
    await runWhy(logFile(fixture('pnpm/captured-http-auth-403').output), {})
    expect(printed).toContain('tool: pnpm (guessed from the log) · rule: any-http-auth')
  })
  it('reads CI prefixes and colour codes', async () => {
    const output = '2024-05-01T12:00:00.1234567Z ##[error]\x1b[31merror\x1b[39m An unexpected error occurred: "https://registry.yarnpkg.com/left-pad: getaddrinfo ENOTFOUND registry.yarnpkg.com".\n'
    await runWhy(logFile(output), {})
    expect(printed).toContain('The host registry.yarnpkg.com could not be resolved (DNS)  [dns]')
  })
})
