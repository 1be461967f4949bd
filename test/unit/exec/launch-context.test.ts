import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { LAUNCH_CONTEXT_SH, readLaunchContext } from '../../../src/exec/launch-context.js'

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
