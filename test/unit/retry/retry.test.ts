import { describe, expect, it } from 'vitest'
import { configSchema } from '../../../src/config/schema.js'
import type { ChildResult } from '../../../src/exec/run-child.js'
import { runWithRetries, type RetryDeps } from '../../../src/retry/retry.js'
import { planSources } from '../../../src/retry/sources.js'
import type { Reporter, RunResult } from '../../../src/retry/types.js'
import { TOOLS } from '../../../src/tools/index.js'
import type { Invocation } from '../../../src/tools/parse-invocation.js'

const TIMEOUT_OUTPUT = "WARNING: Retrying (Retry(total=0, connect=None, read=None, redirect=None, status=None)) after connection broken by 'ReadTimeoutError(\"HTTPSConnectionPool(host='pypi.org', port=443): Read timed out. (read timeout=15)\")': /simple/torch/\nERROR: No matching distribution found for torch"
const NOT_FOUND_OUTPUT = 'ERROR: Could not find a version that satisfies the requirement nosuchpkg (from versions: none)\nERROR: No matching distribution found for nosuchpkg'
const HASH_OUTPUT = 'ERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE.\n    torch from https://files.pythonhosted.org/packages/x/torch-2.0.whl:\n        Expected sha256 aaaa\n             Got        bbbb'
const DNS_OUTPUT = "WARNING: Retrying (Retry(total=0, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f1>: Failed to establish a new connection: [Errno -2] Name or service not known')': /simple/torch/\nERROR: No matching distribution found for torch"
const EXTERNALLY_MANAGED = 'error: externally-managed-environment\n\n× This environment is externally managed'

function invocation(args: string): Invocation {
  return { tool: 'pip', adapter: TOOLS.pip, launcher: ['pip'], args: args.split(' '), executable: '/usr/bin/pip' }
}

/** A scripted exec (np's stub-execa): results given in order, argv recorded. */
function scripted(results: Partial<ChildResult>[]) {
  const calls: { argv: string[]; env: Record<string, string> }[] = []
  const exec: RetryDeps['exec'] = async command => {
    calls.push({ argv: command.argv, env: command.env })
    const next = results[calls.length - 1] ?? { exitCode: 0 }
    return { exitCode: 0, output: '', durationMs: 10, ...next }
  }
  return { exec, calls }
}

function recorder() {
  const events: string[] = []
  const reporter: Reporter = {
    attemptStarted: e => { events.push(`start ${e.number} ${e.source.id}`) },
    attemptFailed: e => { events.push(`failed ${e.number} ${e.diagnosis.category}`) },
    waiting: e => { events.push(`wait ${e.seconds}`) },
    note: () => {},
    finished: (result: RunResult) => { events.push(`finished ${result.outcome} ${result.exitCode}`) },
  }
  return { reporter, events }
}

async function run(args: string, results: Partial<ChildResult>[], config: Record<string, unknown> = {}, userIndex: string | null = null) {
  const parsed = configSchema.parse({ pypi: { mirrors: ['https://mirror-a.test/simple', 'https://mirror-b.test/simple'] }, ...config })
  const plan = planSources({ adapter: TOOLS.pip, config: parsed, userIndex: userIndex ? { url: userIndex, origin: '--index-url' } : null })
  const { exec, calls } = scripted(results)
  const { reporter, events } = recorder()
  const sleeps: number[] = []
  let clock = 0
  const result = await runWithRetries({ invocation: invocation(args), plan, config: parsed, userKnobs: false }, {
    exec, reporter, sleep: async ms => { sleeps.push(ms); clock += ms }, now: () => clock, random: () => 0.5,
  })
  return { result, calls, events, sleeps }
}

describe('runWithRetries', () => {
  it('runs once and succeeds without touching the command but for fast-detection env', async () => {
    const { result, calls } = await run('install torch', [{ exitCode: 0 }])
    expect(result.outcome).toBe('succeeded')
    expect(calls).toEqual([{ argv: ['pip', 'install', 'torch'], env: { PIP_TIMEOUT: '6', PIP_RETRIES: '0' } }])
  })

  it('switches to the next mirror after a timeout', async () => {
    const { result, calls, events } = await run('install torch', [{ exitCode: 1, output: TIMEOUT_OUTPUT }, { exitCode: 0 }])
    expect(result.exitCode).toBe(0)
    expect(calls[1]!.argv).toEqual(['pip', 'install', 'torch', '--index-url', 'https://mirror-a.test/simple'])
    expect(events).toEqual(['start 1 upstream', 'failed 1 timeout', 'start 2 mirror-a.test', 'finished succeeded 0'])
  })

  it('gives up with the last exit code when every attempt fails', async () => {
    const failure = { exitCode: 2, output: TIMEOUT_OUTPUT }
    const { result, calls } = await run('install torch', [failure, failure, failure, failure, failure])
    expect(result.outcome).toBe('gave-up')
    expect(result.exitCode).toBe(2)
    expect(calls).toHaveLength(4)
  })

  it('respects maxAttempts', async () => {
    const failure = { exitCode: 1, output: TIMEOUT_OUTPUT }
    const { calls } = await run('install torch', [failure, failure, failure], { maxAttempts: 2 })
    expect(calls).toHaveLength(2)
  })

  it('stops at once on a package missing upstream', async () => {
    const { result, calls } = await run('install nosuchpkg', [{ exitCode: 1, output: NOT_FOUND_OUTPUT }])
    expect(result.outcome).toBe('gave-up')
    expect(calls).toHaveLength(1)
    expect(result.finalDiagnosis?.category).toBe('package_not_found')
  })

  it('tries upstream once when a package is missing on a mirror', async () => {
    const { calls } = await run('install nosuchpkg', [{ exitCode: 1, output: NOT_FOUND_OUTPUT }, { exitCode: 1, output: NOT_FOUND_OUTPUT }],
      {}, 'https://mirror-a.test/simple')
    expect(calls).toHaveLength(2)
    expect(calls[1]!.argv.slice(-2)).toEqual(['--index-url', 'https://pypi.org/simple'])
  })

  it('re-downloads elsewhere without the cache after a hash mismatch', async () => {
    const { calls } = await run('install torch', [{ exitCode: 1, output: HASH_OUTPUT }, { exitCode: 0 }])
    expect(calls[1]!.argv).toEqual(['pip', 'install', 'torch', '--index-url', 'https://mirror-a.test/simple', '--no-cache-dir'])
  })

  it('stops when two different indexes cannot be resolved: the network is down, more mirrors cannot help', async () => {
    const failure = { exitCode: 1, output: DNS_OUTPUT }
    const { result, calls } = await run('install torch', [failure, failure, failure, failure])
    expect(calls).toHaveLength(2)
    expect(result.stopReason).toMatch(/network of this machine looks down/)
    expect(result.hint).toMatch(/resolv\.conf|VPN/)
  })

  it('does not retry what no retry can fix', async () => {
    const { result, calls } = await run('install torch', [{ exitCode: 1, output: EXTERNALLY_MANAGED }])
    expect(calls).toHaveLength(1)
    expect(result.hint).toMatch(/venv/)
  })

  it('retries a private index in place, never on a mirror, with backoff', async () => {
    const failure = { exitCode: 1, output: TIMEOUT_OUTPUT }
    const { calls, sleeps } = await run('install torch', [failure, failure, { exitCode: 0 }], {}, 'https://pypi.corp.example/simple')
    expect(calls.map(call => call.argv.join(' '))).toEqual(Array(3).fill('pip install torch'))
    expect(sleeps).toHaveLength(2)
    expect(sleeps.every(ms => ms > 0)).toBe(true)
  })

  it('never retries after a user interrupt', async () => {
    const { result, calls } = await run('install torch', [{ exitCode: 130, interrupted: 'SIGINT', output: TIMEOUT_OUTPUT }])
    expect(calls).toHaveLength(1)
    expect(result).toMatchObject({ outcome: 'interrupted', exitCode: 130 })
  })

  it('runs read-only verbs once, unchanged, and keeps their exit code', async () => {
    const { result, calls } = await run('list', [{ exitCode: 3, output: TIMEOUT_OUTPUT }])
    expect(calls).toEqual([{ argv: ['pip', 'list'], env: {} }])
    expect(result).toMatchObject({ outcome: 'ran-once', exitCode: 3 })
  })

  it('stops when the time budget would be exceeded by a wait', async () => {
    const failure = { exitCode: 1, output: TIMEOUT_OUTPUT }
    const { calls } = await run('install torch', [failure, failure], { maxTotalSeconds: 0.001, pypi: { mirrors: [] } })
    expect(calls).toHaveLength(1)
  })

  it('reports 127 when the tool cannot be started', async () => {
    const { result } = await run('install torch', [{ exitCode: 127, spawnError: 'spawn pip ENOENT' }])
    expect(result).toMatchObject({ outcome: 'failed', exitCode: 127 })
  })
})
