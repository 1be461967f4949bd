import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { describeInstallIndex } from '../../../src/autoinstall/install-index.js'
import { configSchema } from '../../../src/config/schema.js'
import { isolatedEnv } from '../../helpers/isolated-env.js'

// What `resilient run` shows before it installs a missing module: the sources the install's own plan will try.
describe('the index an auto-install is announced with', () => {
  const config = configSchema.parse({ pypi: { index: 'https://index.example/simple', mirrors: ['https://mirror.example/simple'] } })

  it('is the plan a tool run makes: the index first, the mirrors after it', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'resilient-index-'))
    expect(describeInstallIndex(['python3', '-m', 'pip', 'install', 'requests'], config, isolatedEnv(), cwd))
      .toBe('https://index.example/simple (if it fails: mirror.example)')
  })

  it('follows the index the project\'s requirement file pins, with no mirror, as the run would', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'resilient-index-'))
    writeFileSync(join(cwd, 'requirements.txt'), '--index-url https://private.example/simple\nrequests\n')
    expect(describeInstallIndex(['python3', '-m', 'pip', 'install', '-r', 'requirements.txt'], config, isolatedEnv(), cwd))
      .toMatch(/^https:\/\/private\.example\/simple/)
  })
})
