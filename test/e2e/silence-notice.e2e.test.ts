import { describe, expect, it } from 'vitest'
import { buildWheel } from '../../src/demo/wheel.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli } from '../helpers/run-cli.js'
import { filesIn, projectWithConfig, pypiServers } from '../helpers/e2e-setup.js'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// "Say why they wait": the only source has sent nothing for a while, and the tool keeps waiting by its own
// settings. One line of resilient's says so (the tool is never cut short for it), piped as in CI.
const server = pypiServers({ wheels: [buildWheel('demo-pkg', '1.0')] })

describe.concurrent('a silent sole source', () => {
  for (const relay of [false, true]) {
    it(`says once who is silent, how long pip keeps trying by its own settings, and the way out (relay ${relay ? 'on' : 'off'})`, async () => {
      const index = await server({ fault: { kind: 'blackhole' } })
      const cwd = projectWithConfig({ relay, pypi: { index: index.url, mirrors: [] } })
      const dest = mkdtempSync(join(tmpdir(), 'resilient-silence-'))
      const started = Date.now()
      const result = await runCli(['python3', '-m', 'pip', 'download', '--no-deps', '-d', dest, '--timeout', '20', '--retries', '0', 'demo-pkg'], { cwd, env: isolatedEnv() })
      expect(result.exitCode).not.toBe(0)
      expect(filesIn(dest)).toEqual([])
      const lines = result.stderr.split('\n').filter(line => /has sent nothing for/.test(line))
      expect(lines, result.all).toHaveLength(1)
      expect(lines[0]).toMatch(new RegExp(`127\\.0\\.0\\.1:${index.port} has sent nothing for 1[5-9] s; pip keeps waiting by its own settings \\(--timeout 20, --retries 0: up to about 20 s in all\\); nothing else is planned: a mirror would help`))
      // pip's own timeout ran out: it was not cut short.
      expect(Date.now() - started).toBeGreaterThan(20_000)
    }, 90_000)
  }
})
