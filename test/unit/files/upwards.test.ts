import { describe, expect, it } from 'vitest'
import { upwards } from '../../../src/files/upwards.js'

describe('upwards', () => {
  it('gives the folder, made absolute, then each one above it, the root included once', () => {
    expect([...upwards('/a/b/c')]).toEqual(['/a/b/c', '/a/b', '/a', '/'])
    expect([...upwards('/')]).toEqual(['/'])
    expect([...upwards('/a/b/../c/')]).toEqual(['/a/c', '/a', '/'])
    expect([...upwards('.')][0]).toBe(process.cwd())
  })
})
