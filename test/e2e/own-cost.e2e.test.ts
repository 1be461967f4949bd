import { execa } from 'execa'
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { CLI } from '../helpers/run-cli.js'

// What resilient's own process does on a healthy run, where the tool has little to do and everything resilient adds
// is its own cost (docs/benchmarks.md, "own cost on a healthy install"). Each test is a behaviour that a cut of
// that cost depends on; the times themselves are measured by hand and in `npm run bench`, never asserted here.

/** Written at exit by resilient's own process (the preload skips every other Node process): what it loaded. */
const PRELOAD = `
const { writeFileSync } = require('node:fs')
if (process.argv[1] && process.argv[1] === process.env.OWN_COST_CLI) process.on('exit', () => writeFileSync(process.env.OWN_COST_OUT, JSON.stringify({
  builtins: process.moduleLoadList.filter(name => name.startsWith('NativeModule ')).map(name => name.slice(13)),
  files: Object.keys(require.cache),
})))
`

interface OwnRun { exitCode: number | undefined; all: string; builtins: string[]; files: string[]; home: string }

/** `resilient <tool> <args>` with a `tool` on PATH that is a shell script exiting 0 at once: a healthy, empty run. */
async function healthyRun(tool: string, args: string[], config: unknown = {}): Promise<OwnRun> {
  const dir = mkdtempSync(join(tmpdir(), 'resilient-own-cost-'))
  const bin = join(dir, 'bin')
  const project = join(dir, 'project')
  for (const folder of [bin, project]) mkdirSync(folder)
  writeFileSync(join(dir, 'preload.cjs'), PRELOAD)
  writeFileSync(join(project, '.resilientrc.json'), JSON.stringify(config))
  writeFileSync(join(bin, tool), '#!/bin/sh\nexit 0\n')
  chmodSync(join(bin, tool), 0o755)
  const out = join(dir, 'loaded.json')
  const env = isolatedEnv({ PATH: `${bin}:${process.env.PATH}`, OWN_COST_CLI: CLI, OWN_COST_OUT: out, RESILIENT_TRUST_PROJECT_CONFIG: '1' })
  const result = await execa('node', ['-r', join(dir, 'preload.cjs'), CLI, tool, ...args], { cwd: project, env, extendEnv: false, reject: false, all: true, stdin: 'ignore', timeout: 60_000 })
  const loaded = JSON.parse(readFileSync(out, 'utf8')) as { builtins: string[]; files: string[] }
  return { exitCode: result.exitCode, all: String(result.all ?? ''), ...loaded, home: env.HOME! }
}

describe("resilient's own work on a healthy run", () => {
  it('loads its CommonJS dependencies with require: no ES module loader, no second parse of their text', async () => {
    // uv: a network verb, so the run books mirror health and writes its run log (both through write-file-atomic).
    const run = await healthyRun('uv', ['pip', 'install', 'demo-pkg'], { pypi: { index: 'https://pypi.org/simple', mirrors: [] } })
    expect(run.exitCode, run.all).toBe(0)
    expect(run.files.some(file => file.includes('/write-file-atomic/'))).toBe(true)
    expect(run.builtins).not.toContain('internal/modules/esm/translators')
    expect(run.builtins).not.toContain('internal/deps/cjs-module-lexer/lexer')
  })
})
