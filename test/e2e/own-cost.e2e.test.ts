import { execa, execaSync } from 'execa'
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { CLI } from '../helpers/run-cli.js'

// What resilient's own process does on a healthy run, where the tool has little to do and everything resilient
// adds is its own cost (docs/benchmarks.md, "own cost where the tool has little to do"). Each test is a behaviour
// that a cut of that cost depends on; the times themselves are measured by hand and in `npm run bench`, never here.

/** Written at exit by resilient's own process (the preload skips every other Node process): what it loaded. */
const PRELOAD = `
const { writeFileSync } = require('node:fs')
if (process.argv[1] && process.argv[1] === process.env.OWN_COST_CLI) process.on('exit', () => writeFileSync(process.env.OWN_COST_OUT, JSON.stringify({
  builtins: process.moduleLoadList.filter(name => name.startsWith('NativeModule ')).map(name => name.slice(13)),
  files: Object.keys(require.cache),
})))
`

// Where strace is installed and may trace (a container without ptrace cannot): the flush test needs it.
const hasStrace = execaSync('sh', ['-c', 'strace -qq -o /dev/null true'], { reject: false }).exitCode === 0

interface OwnRun { exitCode: number | undefined; all: string; builtins: string[]; files: string[]; dir: string; home: string }

/**
 * `resilient <tool> <args>` with a `tool` on PATH that is a shell script exiting 0 at once (or the real one, with
 * `realTool`): a healthy, empty run. `programs` are more shell scripts put first on PATH, by name; `files`, files of
 * the project.
 */
async function healthyRun(tool: string, args: string[], config: unknown = {}, programs: Record<string, string> = {}, options: { fsyncs?: boolean; realTool?: boolean; files?: Record<string, string> } = {}): Promise<OwnRun> {
  const dir = mkdtempSync(join(tmpdir(), 'resilient-own-cost-'))
  const bin = join(dir, 'bin')
  const project = join(dir, 'project')
  for (const folder of [bin, project]) mkdirSync(folder)
  writeFileSync(join(dir, 'preload.cjs'), PRELOAD)
  writeFileSync(join(project, '.resilientrc.json'), JSON.stringify(config))
  for (const [name, text] of Object.entries(options.files ?? {})) writeFileSync(join(project, name), text)
  for (const [name, script] of Object.entries({ ...!options.realTool && { [tool]: 'exit 0' }, ...programs })) {
    writeFileSync(join(bin, name), `#!/bin/sh\n${script}\n`)
    chmodSync(join(bin, name), 0o755)
  }
  const out = join(dir, 'loaded.json')
  const env = isolatedEnv({ PATH: `${bin}:${process.env.PATH}`, OWN_COST_CLI: CLI, OWN_COST_OUT: out, RESILIENT_TRUST_PROJECT_CONFIG: '1' })
  const command = ['node', '-r', join(dir, 'preload.cjs'), CLI, tool, ...args]
  // strace -y names each descriptor's file: which files resilient's own process flushed to disk.
  const traced = options.fsyncs ? ['strace', '-f', '-qq', '-y', '-e', 'trace=fsync,fdatasync', '-o', join(dir, 'fsync.log'), ...command] : command
  const result = await execa(traced[0]!, traced.slice(1), { cwd: project, env, extendEnv: false, reject: false, all: true, stdin: 'ignore', timeout: 60_000 })
  const loaded = JSON.parse(readFileSync(out, 'utf8')) as { builtins: string[]; files: string[] }
  return { exitCode: result.exitCode, all: String(result.all ?? ''), ...loaded, dir, home: env.HOME! }
}

describe("resilient's own work on a healthy run", () => {
  it('loads its CommonJS dependencies with require: no ES module loader, no second parse of their text', async () => {
    // uv: a network verb, so the run writes its run log (through write-file-atomic).
    const run = await healthyRun('uv', ['pip', 'install', 'demo-pkg'], { pypi: { index: 'https://pypi.org/simple', mirrors: [] } })
    expect(run.exitCode, run.all).toBe(0)
    expect(run.files.some(file => file.includes('/write-file-atomic/'))).toBe(true)
    expect(run.builtins).not.toContain('internal/modules/esm/translators')
    expect(run.builtins).not.toContain('internal/deps/cjs-module-lexer/lexer')
  })

  it('makes the tool\'s pipes with one mkfifo, the watchdog\'s, even when it is slow: none from its own main thread', async () => {
    // A mkfifo that takes 0.8 s: resilient reaches the tool's start before it is done, and waits for it.
    const real = execaSync('sh', ['-c', 'command -v mkfifo']).stdout.trim()
    const mkfifo = `echo "$@" >> "$(dirname "$0")/../mkfifo.log"\nsleep 0.8\nexec ${real} "$@"`
    const run = await healthyRun('uv', ['pip', 'install', 'demo-pkg'], { pypi: { index: 'https://pypi.org/simple', mirrors: [] } }, { mkfifo })
    expect(run.exitCode, run.all).toBe(0)
    expect(readFileSync(join(run.dir, 'mkfifo.log'), 'utf8').trim().split('\n')).toHaveLength(1)
  })

  it.skipIf(!hasStrace)('writes its run log without waiting for a flush to disk', async () => {
    const run = await healthyRun('uv', ['pip', 'install', 'demo-pkg'], { pypi: { index: 'https://pypi.org/simple', mirrors: [] } }, {}, { fsyncs: true })
    expect(run.exitCode, run.all).toBe(0)
    const flushed = readFileSync(join(run.dir, 'fsync.log'), 'utf8').split('\n').filter(line => /fsync|fdatasync/.test(line))
    const stateDir = join(run.home, '.local/state/resilient')
    expect(readdirSync(join(stateDir, 'logs')).length).toBe(1)
    expect(flushed.filter(line => line.includes(`${stateDir}/logs/`)), flushed.join('\n')).toEqual([])
  })

  it('keeps npm\'s cache for plain npm only when the relay fetched pages: nothing fetched, cacache is not loaded', async () => {
    // The real npm, as shipped: through the relay (the built-in catalog's mirrors); with no dependency and no audit it
    // asks nothing.
    const run = await healthyRun('npm', ['install', '--no-audit', '--no-fund'], {}, {}, { realTool: true, files: { 'package.json': '{"name":"empty","version":"1.0.0"}' } })
    expect(run.exitCode, run.all).toBe(0)
    // The relay's own code, which loads once the tool runs: the attempt went through the relay.
    expect(run.files.some(file => /\/dist\/server-[^/]*\.cjs$/.test(file))).toBe(true)
    expect(run.files.filter(file => file.includes('/cacache/'))).toEqual([])
  })
})
