import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkShims } from '../../../src/doctor/shims.js'
import { installShims } from '../../../src/shims/install.js'

function shimsWrittenBy(version: string) {
  const home = mkdtempSync(join(tmpdir(), 'resilient-doctor-'))
  const dir = join(home, 'shims')
  installShims({ dir, tools: ['pip', 'npm'], node: process.execPath, cli: '/opt/resilient/bin/resilient.js', resilientVersion: version })
  return { dir, env: { HOME: home, PATH: `${dir}:/usr/bin:/bin` } }
}

const outdatedWarnings = (section: ReturnType<typeof checkShims>) => section.problems.filter(problem => /written by resilient/.test(problem.message))

describe('doctor: shims older than the installed resilient', () => {
  it('says nothing when this resilient wrote them', () => {
    const { env } = shimsWrittenBy('1.0.0')
    expect(outdatedWarnings(checkShims(env, '1.0.0'))).toEqual([])
  })

  it('warns when another version wrote them, and says how to refresh them', () => {
    const { dir, env } = shimsWrittenBy('0.9.0')
    const [warning, ...more] = outdatedWarnings(checkShims(env, '1.0.0'))
    expect(more).toEqual([])
    expect(warning!.severity).toBe('warning')
    expect(warning!.message).toContain(`The shims for npm, pip in ${dir} were written by resilient 0.9.0`)
    expect(warning!.fix).toBe(`Write them again: resilient shim install --dir ${dir} npm pip`)
  })

  it('finds a shim whose read-only commands differ even under the same version (a development build)', () => {
    const { dir, env } = shimsWrittenBy('1.0.0')
    const path = join(dir, 'pip')
    writeFileSync(path, readFileSync(path, 'utf8').replace('freeze|', ''))
    expect(outdatedWarnings(checkShims(env, '1.0.0'))[0]!.message).toContain('The shims for pip in')
  })

  it('finds a first-version shim, which had no read-only fast path', () => {
    const { dir, env } = shimsWrittenBy('1.0.0')
    writeFileSync(join(dir, 'npm'), `#!/bin/sh\n# resilient-shim v1: npm\nexec node /opt/resilient/bin/resilient.js shim run npm "$@"\n`)
    expect(outdatedWarnings(checkShims(env, '1.0.0'))[0]!.message).toContain('The shims for npm in')
  })
})
