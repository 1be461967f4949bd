import { describe, expect, it } from 'vitest'
import { detectPythonMissing, importedNames } from '../../../src/autoinstall/detect-python.js'
import { fixture, missing, refused } from './fixture.js'

describe('detectPythonMissing on real interpreter output', () => {
  it.each(['py311-plain', 'py36-plain', 'py27-plain', 'py313-color', 'pytest-collection'])('finds cv2 in %s', name => {
    const module = missing(detectPythonMissing(fixture(name)))
    expect(module).toMatchObject({ ecosystem: 'python', reported: 'cv2', name: 'cv2', parentImported: false })
    expect(module?.evidence).toContain('import cv2')
  })

  it('recovers the dotted name the message loses from the source line', () => {
    expect(missing(detectPythonMissing(fixture('py311-dotted-lost')))).toMatchObject({ reported: 'google', name: 'google.protobuf', importer: '/tmp/ri/g.py' })
  })

  it('reads the namespace-package form as the missing submodule', () => {
    expect(missing(detectPythonMissing(fixture('py311-namespace-unknown-location')))).toMatchObject({ name: 'google.cloud.storage', parentImported: true })
  })

  it('acts on the final exception of a fallback chain only', () => {
    expect(missing(detectPythonMissing(fixture('py311-fallback-chain')))?.name).toBe('simplejson_missing')
  })

  it('finds the interpreter error inside a library wrapper (pandas style)', () => {
    expect(missing(detectPythonMissing(fixture('py311-wrapped')))?.name).toBe('openpyxl')
  })

  it('marks a missing submodule of an importable package', () => {
    expect(missing(detectPythonMissing(fixture('py311-submodule-of-installed')))).toMatchObject({ name: 'json.nothing', parentImported: true })
  })

  it('ignores a handled import error when the script fails on something else', () => {
    expect(detectPythonMissing(fixture('py311-handled-then-other'))).toBeUndefined()
  })

  it('reports the removed stdlib module as missing (the chooser refuses it)', () => {
    expect(missing(detectPythonMissing(fixture('py313-telnetlib')))?.name).toBe('telnetlib')
  })

  it.each([
    ['py311-relative', /relative import/],
    ['py311-blocked', /on purpose/],
    ['py311-cannot-import-name', /installed but has no such name/],
    ['py311-not-a-package', /"yaml_local" is a module/],
  ])('refuses %s', (name, reason) => {
    expect(refused(detectPythonMissing(fixture(name)))?.reason).toMatch(reason)
  })

  it('is not masked by a warning printed at shutdown', () => {
    expect(missing(detectPythonMissing(`${fixture('py311-plain')}ResourceWarning: unclosed file <_io.TextIOWrapper name='x'>\n`))?.name).toBe('cv2')
  })

  it('finds nothing in a success or a Node error', () => {
    expect(detectPythonMissing('hello\n')).toBeUndefined()
    expect(detectPythonMissing(fixture('node-cjs-subpath'))).toBeUndefined()
  })
})

describe('importedNames', () => {
  const _ = (line: string, names: string[]) => () => expect(importedNames(line)).toEqual(names)
  it('plain import', _('    import google.protobuf', ['google.protobuf']))
  it('several, with aliases', _('import numpy as np, google.protobuf as pb', ['numpy', 'google.protobuf']))
  it('from import', _('from google.cloud import storage, bigquery as bq', ['google.cloud.storage', 'google.cloud.bigquery']))
  it('parenthesised', _('from a.b import (c, d)', ['a.b.c', 'a.b.d']))
  it('star', _('from yaml import *', ['yaml']))
  it('not an import', _('x = import_module("a")', []))
})
