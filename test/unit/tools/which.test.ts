import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { lookupProgram, which } from '../../../src/tools/argv/which.js'

// bash's command search (findcmd.c), on real files.
function tree(files: Record<string, number>): string {
  const root = mkdtempSync(join(tmpdir(), 'resilient-which-'))
  for (const [path, mode] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true })
    writeFileSync(join(root, path), '#!/bin/sh\n')
    chmodSync(join(root, path), mode)
  }
  return root
}

describe('lookupProgram', () => {
  it('takes the first executable file along PATH, passing over files that cannot run and directories', () => {
    const root = tree({ 'a/pip': 0o644, 'b/pip/x': 0o755, 'c/pip': 0o755, 'd/pip': 0o755 })
    const PATH = ['a', 'b', 'c', 'd'].map(dir => join(root, dir)).join(':')
    expect(lookupProgram('pip', { PATH })).toEqual({ kind: 'found', path: join(root, 'c/pip') })
  })

  it('answers not-executable (the shell\'s 126) when only files without execute permission carry the name', () => {
    const root = tree({ 'a/pip': 0o644 })
    expect(lookupProgram('pip', { PATH: join(root, 'a') })).toEqual({ kind: 'not-executable', path: join(root, 'a/pip') })
    expect(lookupProgram('nothing', { PATH: join(root, 'a') })).toEqual({ kind: 'missing' })
  })

  it('honours relative and empty PATH entries from the working directory, as the shell does', () => {
    const root = tree({ 'tools/pip': 0o755, 'uv': 0o755 })
    expect(lookupProgram('pip', { PATH: 'tools' }, { cwd: root })).toEqual({ kind: 'found', path: join(root, 'tools/pip') })
    expect(lookupProgram('uv', { PATH: ':/nonexistent' }, { cwd: root })).toEqual({ kind: 'found', path: join(root, 'uv') })
  })

  it('uses a name with a slash as written, relative to the working directory', () => {
    const root = tree({ 'venv/bin/pip': 0o755 })
    expect(lookupProgram('venv/bin/pip', { PATH: '' }, { cwd: root })).toEqual({ kind: 'found', path: join(root, 'venv/bin/pip') })
    expect(lookupProgram('./nothing', { PATH: '' }, { cwd: root })).toEqual({ kind: 'missing' })
  })

  it('passes over the directories it is told to skip (a shim\'s own)', () => {
    const root = tree({ 'shims/pip': 0o755, 'real/pip': 0o755 })
    const PATH = [join(root, 'shims'), join(root, 'real')].join(':')
    expect(which('pip', { PATH }, dir => dir === join(root, 'shims'))).toBe(join(root, 'real/pip'))
  })
})
