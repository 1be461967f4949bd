import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { logsDirectory } from '../../src/paths.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli } from '../helpers/run-cli.js'
import { projectWithConfig } from '../helpers/e2e-setup.js'

// Secrets seeded in the arguments, the environment, the config and the tool's own output must not appear in
// anything resilient itself prints or writes: its lines on stderr, dry-run, the report, run logs, `logs`, `doctor`.
// The tool's own output passes through as the tool printed it (docs/process.md): that is not resilient's to rewrite.
const SECRETS = {
  args: 'ArgSecret-1111',
  env: 'EnvSecret-2222',
  configIndex: 'CfgIndexSecret-3333',
  configMirror: 'CfgMirrorSecret-4444',
  outputBearer: 'OutBearerSecret5555',
  outputToken: 'ghp_0123456789abcdefghijABCDEFGHIJ5555',
}

function setup(extra: Record<string, string> = {}) {
  const bin = mkdtempSync(join(tmpdir(), 'resilient-leaky-pip-'))
  // A pip that echoes everything it was given to stderr, next to a timeout; its stdout carries only data.
  writeFileSync(join(bin, 'pip'), `#!/bin/sh
echo "DATA-LINE"
echo "Looking in indexes: $*" >&2
echo "Authorization: Bearer ${SECRETS.outputBearer} token ${SECRETS.outputToken} env $MY_API_TOKEN" >&2
echo "WARNING: Retrying (Retry(total=0)) after connection broken by 'ReadTimeoutError(\\"HTTPSConnectionPool(host='127.0.0.1', port=9): Read timed out.\\")': $*" >&2
echo "ERROR: No matching distribution found for demo-pkg" >&2
exit 1
`, { mode: 0o755 })
  const base = isolatedEnv({ MY_API_TOKEN: SECRETS.env, ...extra })
  const env = { ...base, PATH: `${bin}:${base.PATH}` }
  const cwd = projectWithConfig({
    maxAttempts: 3,
    pypi: { index: `https://ci:${SECRETS.configIndex}@127.0.0.1:9/simple`, mirrors: [`https://ci:${SECRETS.configMirror}@127.0.0.1:8/simple`] },
  })
  const args = ['pip', 'download', '--proxy', `http://me:${SECRETS.args}@127.0.0.1:7`, 'demo-pkg']
  return { env, cwd, args }
}

function leaks(text: string): string[] {
  return Object.values(SECRETS).filter(secret => text.includes(secret))
}

// The leaky pip's own lines: they pass through as the tool printed them, never rewritten (docs/process.md).
const TOOL_LINE = /^(DATA-LINE|Looking in indexes: |Authorization: |WARNING: Retrying |ERROR: No matching )/

/** What resilient itself printed: every line but the tool's own. */
function resilientLines(text: string): string {
  return text.split('\n').filter(line => !TOOL_LINE.test(line)).join('\n')
}

describe('no seeded secret leaks', () => {
  it('from a failing run: terminal, report, log, logs, dry-run and doctor', async () => {
    const { env, cwd, args } = setup()
    const report = join(mkdtempSync(join(tmpdir(), 'resilient-report-')), 'report.json')
    const run = await runCli(['--verbose', '--report', report, ...args], { env, cwd })
    expect(run.exitCode).toBe(1)
    // It really ran, retried (two sources, each tried once for a timeout: docs/plan.md), and showed the tool's own
    // output untouched and its own evidence redacted.
    expect(run.stdout).toBe('DATA-LINE\nDATA-LINE')
    expect(run.stderr).toContain(`Authorization: Bearer ${SECRETS.outputBearer} token ${SECRETS.outputToken} env ${SECRETS.env}\n`)
    expect(run.stderr).toMatch(/^ {4}WARNING: Retrying .*--proxy http:\/\/\*\*\*\*@127\.0\.0\.1:7/m)
    expect(run.stderr).toMatch(/gave up after 2 attempts/)
    const outputs: Record<string, string> = { run: resilientLines(String(run.all)), report: readFileSync(report, 'utf8') }
    expect(JSON.parse(outputs.report!).attempts).toHaveLength(2)
    for (const file of readdirSync(logsDirectory(env))) outputs[file] = readFileSync(join(logsDirectory(env), file), 'utf8')
    outputs.logs = String((await runCli(['logs'], { env })).all)
    outputs.logsLast = String((await runCli(['logs', '--last', '--json'], { env })).all)
    outputs.dryRun = String((await runCli(['--dry-run', ...args], { env, cwd })).all)
    outputs.config = String((await runCli(['config'], { env, cwd })).all)
    outputs.doctor = String((await runCli(['doctor'], { env: { ...env, PIP_INDEX_URL: `https://u:${SECRETS.configIndex}@corp.test/simple`, HTTPS_PROXY: `http://p:${SECRETS.args}@127.0.0.1:3128` }, cwd })).all)
    // The mirror's password travels in a netrc (NETRC), never on pip's command line, where any user of the machine can read it.
    expect(outputs.dryRun).toMatch(/NETRC=\S+\/netrc-[0-9a-f]{8} .*--index-url https:\/\/127\.0\.0\.1:8\/simple/)
    expect(outputs.logsLast).toContain('"category": "timeout"')
    expect(outputs.config).toContain('127.0.0.1:8')
    for (const [name, text] of Object.entries(outputs)) expect(leaks(text), name).toEqual([])
  })

  it('in GitHub Actions, a secret appears only on the ::add-mask:: line that hides it', async () => {
    const { env, cwd, args } = setup({ GITHUB_ACTIONS: 'true', CI: 'true' })
    const run = await runCli(args, { env, cwd })
    const lines = String(run.all).split('\n')
    const masks = lines.filter(line => line.startsWith('::add-mask::'))
    expect(masks).toEqual(expect.arrayContaining([`::add-mask::${SECRETS.env}`, `::add-mask::${SECRETS.args}`, `::add-mask::${SECRETS.configIndex}`]))
    // Masks come before the first attempt's output (its first line), whose own output is not grouped.
    expect(lines.indexOf(`::add-mask::${SECRETS.env}`)).toBeLessThan(lines.indexOf('DATA-LINE'))
    for (const line of lines.filter(line => !line.startsWith('::add-mask::') && !TOOL_LINE.test(line))) expect(leaks(line), line).toEqual([])
    expect(lines).toContain('::group::resilient: attempt 2 of 2 on mirror 127.0.0.1:8')
    expect(lines.some(line => line.startsWith('::warning title=resilient retry::attempt 1 failed: timeout'))).toBe(true)
    expect(lines.some(line => line.startsWith('::error title=resilient gave up::gave up after 2 attempts: timeout'))).toBe(true)
  })

  it('a token in a query parameter of any name shape: terminal, report, log, logs, dry-run and doctor', async () => {
    const { env, cwd } = setup()
    const values = { api_token: 'QApiTok-6161', private_token: 'QPriv-6262', auth_token: 'QAuthTok-6363', 'access-token': 'QAccess-6464', 'X-Auth': 'QXAuth-6565', Signature: 'QSig-6666' }
    const query = Object.entries(values).map(([name, value]) => `${name}=${value}`).join('&')
    const args = ['pip', 'download', '--extra-index-url', `https://127.0.0.1:6/simple?${query}`, 'demo-pkg']
    const report = join(mkdtempSync(join(tmpdir(), 'resilient-report-')), 'report.json')
    const run = await runCli(['--verbose', '--report', report, ...args], { env, cwd })
    expect(run.exitCode).toBe(1)
    // The tool's own line keeps what the tool printed; resilient's lines and files hold none of the values.
    expect(run.stderr).toContain(`Looking in indexes: download --extra-index-url https://127.0.0.1:6/simple?${query}`)
    expect(run.stderr).toMatch(/^→ .*api_token=\*\*\*\*&private_token=\*\*\*\*&auth_token=\*\*\*\*&access-token=\*\*\*\*&X-Auth=\*\*\*\*&Signature=\*\*\*\*/m)
    const outputs: Record<string, string> = { run: resilientLines(String(run.all)), report: readFileSync(report, 'utf8') }
    for (const file of readdirSync(logsDirectory(env))) outputs[file] = readFileSync(join(logsDirectory(env), file), 'utf8')
    outputs.logs = String((await runCli(['logs'], { env })).all)
    outputs.logsLast = String((await runCli(['logs', '--last', '--json'], { env })).all)
    outputs.dryRun = String((await runCli(['--dry-run', ...args], { env, cwd })).all)
    outputs.doctor = String((await runCli(['doctor'], { env: { ...env, PIP_INDEX_URL: `https://corp.test/simple?${query}` }, cwd })).all)
    expect(outputs.doctor).toContain('corp.test')
    for (const [name, text] of Object.entries(outputs)) expect(Object.values(values).filter(value => text.includes(value)), name).toEqual([])
  })
})
