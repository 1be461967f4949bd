import { describe, expect, it } from 'vitest'
import { detectPythonMissing, detectPytestCollection } from '../../../src/autoinstall/detect-python.js'
import { finalError } from '../../../src/autoinstall/final-error.js'
import { fixture, missing } from './fixture.js'

const traceback = fixture('py311-plain')

describe('finalError', () => {
  it('reads the hook\'s report of the uncaught error, and nothing else', () => {
    expect(missing(finalError({ kind: 'uncaught', text: traceback }, { stderr: '', all: '' }, detectPythonMissing))?.name).toBe('cv2')
    expect(finalError({ kind: 'clean' }, { stderr: traceback, all: traceback }, detectPythonMissing)).toBeUndefined()
  })

  it('reads stderr, never stdout, when no hook ran', () => {
    expect(missing(finalError({ kind: 'absent' }, { stderr: traceback, all: traceback }, detectPythonMissing))?.name).toBe('cv2')
    expect(finalError({ kind: 'absent' }, { stderr: 'other failure\n', all: `${traceback}other failure\n` }, detectPythonMissing)).toBeUndefined()
  })

  it('reads pytest\'s collection report (on stdout) only when the hook saw pytest end the run', () => {
    const output = fixture('pytest-collection')
    expect(missing(finalError({ kind: 'clean', pytest: true }, { stderr: '', all: output }, detectPythonMissing))?.name).toBe('cv2')
    expect(finalError({ kind: 'clean' }, { stderr: '', all: output }, detectPythonMissing)).toBeUndefined()
    expect(detectPytestCollection('1 passed in 0.01s\n')).toBeUndefined()
  })
})
