import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { isMissingFile } from '../../../src/files/missing-file.js'

const errorOf = (read: () => unknown): unknown => {
  try {
    read()
  } catch (error) {
    return error
  }
  throw new Error('read did not fail')
}

describe('isMissingFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'missing-file-'))
  writeFileSync(join(dir, 'plain'), 'x')

  it('is true for a file that is not there and for a path through a regular file', () => {
    expect(isMissingFile(errorOf(() => readFileSync(join(dir, 'absent'))))).toBe(true)
    expect(isMissingFile(errorOf(() => readFileSync(join(dir, 'plain', 'below'))))).toBe(true)
  })

  it('is false for a file that is there but cannot be read as one, and for errors without a code', () => {
    expect(isMissingFile(errorOf(() => readFileSync(dir)))).toBe(false) // EISDIR
    expect(isMissingFile(new Error('no code'))).toBe(false)
    expect(isMissingFile(undefined)).toBe(false)
  })
})
