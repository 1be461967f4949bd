import { constants } from 'node:os'
import { describe, expect, it } from 'vitest'
import { EXIT } from '../../../src/errors.js'
import { exitCodeOf } from '../../../src/exec/run-child.js'
import { execFileSync } from 'node:child_process'
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

  it('keeps an environment sh would cut (names that are not shell names) whole, through GNU env, the signals still ignored', () => {
    const env = { PATH: process.env.PATH!, 'npm_config_@corp:registry': 'https://npm.corp.example/' }
    const launch = withIgnoredSignals('/bin/cat', ['/proc/self/status'], new Set(['SIGHUP', 'SIGINT'] as const), env)
    expect(launch.file).toBe('/usr/bin/env')
    const status = execFileSync(launch.file, launch.args, { encoding: 'utf8', env })
    expect([...parseSignalMask(/^SigIgn:\s*(\S+)/m.exec(status)![1])]).toEqual(expect.arrayContaining(['SIGHUP', 'SIGINT']))
    const seen = execFileSync(...Object.values(withIgnoredSignals('/usr/bin/printenv', ['npm_config_@corp:registry'], new Set(['SIGHUP'] as const), env)) as [string, string[]], { encoding: 'utf8', env })
    expect(seen.trim()).toBe('https://npm.corp.example/')
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
