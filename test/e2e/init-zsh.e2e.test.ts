import { execa } from 'execa'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { command, describeNeeding } from '../helpers/requirements.js'
import { runCli } from '../helpers/run-cli.js'

// `eval "$(resilient init zsh)"` in a real zsh (no rc files): a read-only call runs the tool itself, an install goes
// through resilient, RESILIENT_NO_SHIM turns the functions off. A pip of the test's own says whether resilient ran it.
describeNeeding(command('zsh'), 'resilient init zsh', () => {
  it('defines functions zsh accepts: read-only calls run the tool, installs go through resilient', async () => {
    const env = isolatedEnv()
    const bin = mkdtempSync(join(tmpdir(), 'resilient-zsh-'))
    writeFileSync(join(bin, 'pip'), '#!/bin/sh\necho "pip $* (through resilient: ${RESILIENT_ACTIVE:-no})"\n', { mode: 0o755 })
    const init = await runCli(['init', 'zsh'], { env })
    expect(init.exitCode, init.stderr).toBe(0)
    const script = `${init.stdout}
whence -w pip
pip list
pip install --no-index x
RESILIENT_NO_SHIM=1 pip install --no-index y
`
    const result = await execa('zsh', ['-f', '-c', script], { env: { ...env, PATH: `${bin}:${env.PATH}` }, extendEnv: false, reject: false, stdin: 'ignore', timeout: 60_000 })
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout.split('\n')).toEqual([
      'pip: function',
      'pip list (through resilient: no)',
      'pip install --no-index x (through resilient: 1)',
      'pip install --no-index y (through resilient: no)',
    ])
  })
})
