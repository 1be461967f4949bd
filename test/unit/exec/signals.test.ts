import { constants } from 'node:os'
import { describe, expect, it } from 'vitest'
import { EXIT } from '../../../src/errors.js'
import { exitCodeOf } from '../../../src/exec/run-child.js'
import { canReraise, endsProcess, exitCodeForSignal, parseSignalMask, withIgnoredSignals } from '../../../src/exec/signals.js'

describe('signals', () => {
  it('reads the SigIgn mask of /proc/<pid>/status', () => {
    expect([...parseSignalMask('0000000000000001')]).toEqual(['SIGHUP'])
    expect([...parseSignalMask('0000000000001003')].sort()).toEqual(['SIGHUP', 'SIGINT', 'SIGPIPE'])
    expect([...parseSignalMask('')]).toEqual([])
    expect([...parseSignalMask('not hex')]).toEqual([])
  })

  it('starts the tool through sh only when something is ignored, and keeps its arguments as they are', () => {
    expect(withIgnoredSignals('/usr/bin/pip', ['install', 'a b'], new Set())).toEqual({ file: '/usr/bin/pip', args: ['install', 'a b'] })
    expect(withIgnoredSignals('/usr/bin/pip', ['install', '$x'], new Set(['SIGHUP', 'SIGINT'] as const))).toEqual({
      file: '/bin/sh', args: ['-c', `trap '' HUP INT; exec "$0" "$@"`, '/usr/bin/pip', 'install', '$x'],
    })
  })

  it('re-raises what ends a process without a core file; job control and resizes end nothing', () => {
    expect(canReraise('SIGINT')).toBe(true)
    expect(canReraise('SIGPIPE')).toBe(true)
    expect(canReraise('SIGSEGV')).toBe(false)
    expect(canReraise('SIGQUIT')).toBe(false)
    expect(endsProcess('SIGWINCH')).toBe(false)
    expect(endsProcess('SIGTSTP')).toBe(false)
    expect(endsProcess('SIGUSR1')).toBe(true)
  })
})

describe('exit codes of a death by signal', () => {
  it('are 128 + the platform\'s signal number (os.constants.signals), never a hand-written table', () => {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGKILL'] as const) expect(exitCodeForSignal(signal)).toBe(128 + constants.signals[signal])
    expect(EXIT.interrupted).toBe(exitCodeForSignal('SIGINT'))
    expect(EXIT.terminated).toBe(exitCodeForSignal('SIGTERM'))
    expect(exitCodeOf(null, 'SIGTERM')).toBe(exitCodeForSignal('SIGTERM'))
    expect(exitCodeOf(null, null)).toBe(1)
  })
})
