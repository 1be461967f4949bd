import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readRequirementIndexOptions, streamedRequirementsChooseIndex } from '../../../src/tools/config/requirement-files.js'
import { readRegularFile } from '../../../src/tools/config/regular-file.js'
import { readYamlFile } from '../../../src/tools/config/yaml-file.js'

// A file the command names is read by resilient only when it is a regular file. Opening a FIFO with no
// writer would block this test (and its hard timeout fail it); reading one with a writer would steal the tool's bytes.
describe('files named on the command line', () => {
  it('are read when regular, never when a FIFO', () => {
    const dir = mkdtempSync(join(tmpdir(), 'resilient-fifo-'))
    execFileSync('mkfifo', [join(dir, 'reqs')])
    writeFileSync(join(dir, 'plain.txt'), '--index-url https://corp.test/simple\ndemo\n')
    expect(readRegularFile(join(dir, 'reqs'))).toBeUndefined()
    expect(readRequirementIndexOptions(join(dir, 'reqs'), dir)).toEqual([])
    expect(readYamlFile(join(dir, 'reqs'))).toBeUndefined()
    expect(readRequirementIndexOptions('plain.txt', dir)).toEqual([{ option: '--index-url', value: 'https://corp.test/simple', none: false, origin: `${join(dir, 'plain.txt')}:1` }])
  }, 10_000)

  it('a streamed requirements file that chose its own index forbids a retry on a mirror', () => {
    expect(streamedRequirementsChooseIndex('demo\n')).toBeUndefined()
    expect(streamedRequirementsChooseIndex('# --index-url in a comment\ndemo\n')).toBeUndefined()
    expect(streamedRequirementsChooseIndex('-i https://corp.test/simple\ndemo\n')).toMatch(/choose their own index \(-i\)/)
    expect(streamedRequirementsChooseIndex('--no-index\n')).toMatch(/\(--no-index\)/)
  })
})
