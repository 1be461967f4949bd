import { readFileSync } from 'node:fs'
import { expect } from 'vitest'
import type { Detection } from '../../../src/autoinstall/types.js'

/** A captured output under fixtures/, without its first line (the comment saying how it was captured). */
export function fixture(name: string): string {
  return readFileSync(new URL(`fixtures/${name}.txt`, import.meta.url), 'utf8').split('\n').slice(1).join('\n')
}

/** The module a detection found missing (failing the test when it found something else). */
export function missing(detection: Detection | undefined) {
  expect(detection?.kind).toBe('missing')
  return detection?.kind === 'missing' ? detection.module : undefined
}

/** Why a detection was refused (failing the test when it was not). */
export function refused(detection: Detection | undefined) {
  expect(detection?.kind).toBe('not-installable')
  return detection?.kind === 'not-installable' ? detection.refusal : undefined
}
