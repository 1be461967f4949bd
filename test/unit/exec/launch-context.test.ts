import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { LAUNCH_CONTEXT_SH, readLaunchContext } from '../../../src/exec/launch-context.js'
import { restoreDroppedVariables } from '../../../src/exec/launch-environment.js'

const LAUNCHER = fileURLToPath(new URL('../../../bin/resilient', import.meta.url))

describe('launch context', () => {
  it('is read by the same sh lines in bin/resilient and in every shim', () => {
    expect(readFileSync(LAUNCHER, 'utf8')).toContain(LAUNCH_CONTEXT_SH)
  })

  it('reads the caller\'s ignored signals and passed descriptors, not the shell\'s own', () => {
    const script = `${LAUNCH_CONTEXT_SH}echo "$RESILIENT_LAUNCH_SIGIGN|$RESILIENT_LAUNCH_FDS"`
    const out = execFileSync('/bin/sh', ['-c', `trap '' HUP; exec 7</dev/null; exec /bin/sh -c '${script.replace(/'/g, `'\\''`)}'`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
    const context = readLaunchContext({ RESILIENT_LAUNCH_SIGIGN: out.split('|')[0], RESILIENT_LAUNCH_FDS: out.split('|')[1] })
    expect(context.ignoredSignals.has('SIGHUP')).toBe(true)
    expect(context.inheritedFds).toContain(7)
    expect(context.inheritedFds.every(fd => fd > 2)).toBe(true)
  })
})

describe('the environment the launcher\'s shell could not pass on', () => {
  it('is handed over whole by the sh lines under dash, and only its names that are not shell names are put back', () => {
    const script = `${LAUNCH_CONTEXT_SH}printf '%s' "$RESILIENT_LAUNCH_ENVIRON"`
    const env = { PATH: process.env.PATH!, KEPT: 'yes', 'npm_config_@corp:registry': 'https://npm.corp.example/', 'npm_config_//npm.corp.example/:_authToken': 'tok=en', 'BASH_FUNC_f%%': '() { :; }' }
    const encoded = execFileSync('dash', ['-c', script], { encoding: 'utf8', env })
    const after: NodeJS.ProcessEnv = { PATH: process.env.PATH, KEPT: 'changed by the shell' }
    expect(restoreDroppedVariables(after, encoded).sort()).toEqual(['BASH_FUNC_f%%', 'npm_config_//npm.corp.example/:_authToken', 'npm_config_@corp:registry'])
    expect(after).toMatchObject({ KEPT: 'changed by the shell', 'npm_config_@corp:registry': 'https://npm.corp.example/', 'npm_config_//npm.corp.example/:_authToken': 'tok=en', 'BASH_FUNC_f%%': '() { :; }' })
  })

  it('is not copied by bash, which passes such names on itself', () => {
    // A script file, as a shim is (bash -c with a socket for stdin would read ~/.bashrc, as it does under rshd).
    const file = join(mkdtempSync(join(tmpdir(), 'resilient-launch-')), 'shim')
    writeFileSync(file, `#!/bin/bash --posix\n${LAUNCH_CONTEXT_SH}printf '%s' "\${RESILIENT_LAUNCH_ENVIRON-unset}"\n`, { mode: 0o755 })
    expect(execFileSync(file, { encoding: 'utf8', env: { PATH: process.env.PATH! } })).toBe('unset')
  })

  it('restores nothing without what the launcher passed, and never overrides a name the environment has', () => {
    const env: NodeJS.ProcessEnv = { 'a-b': 'mine' }
    expect(restoreDroppedVariables(env, undefined)).toEqual([])
    expect(restoreDroppedVariables(env, Buffer.from('a-b=theirs\0c:d=x\0').toString('base64'))).toEqual(['c:d'])
    expect(env['a-b']).toBe('mine')
  })
})

describe('NODE_EXTRA_CA_CERTS, which Node would parse at start', () => {
  // What the sh lines leave for Node to start with: the variable moved under the launcher's name, set or empty alike.
  const afterLines = (env: Record<string, string>) => execFileSync('/bin/sh', ['-c', `${LAUNCH_CONTEXT_SH}env`], { encoding: 'utf8', env: { PATH: process.env.PATH!, ...env } })
    .split('\n').filter(line => /^(NODE_EXTRA_CA_CERTS|RESILIENT_LAUNCH_EXTRA_CA_CERTS)=/.test(line)).sort()

  it.each([
    ['a file', { NODE_EXTRA_CA_CERTS: '/etc/ssl/extra ca.pem' }, ['RESILIENT_LAUNCH_EXTRA_CA_CERTS=/etc/ssl/extra ca.pem']],
    ['empty', { NODE_EXTRA_CA_CERTS: '' }, ['RESILIENT_LAUNCH_EXTRA_CA_CERTS=']],
    ['unset', {}, []],
  ])('is handed over under the launcher\'s name, never to Node itself: %s', (_, env, expected) => {
    expect(afterLines(env)).toEqual(expected)
  })
})
