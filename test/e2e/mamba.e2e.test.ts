import { describe, expect, it } from 'vitest'
import { CONDA_MIRROR, dryRun, runWithFakes } from '../helpers/fake-tools.js'

// mamba cannot be installed here: a fake mamba answers `--version` as 1.x or 2.x and replays a real libmamba
// "Download error (28) Timeout was reached" (conda/infrastructure#1080).
const config = { conda: { mirrors: [CONDA_MIRROR] } }
const DEFAULTS = 'https://conda-mirror.test/anaconda/pkgs/main,https://conda-mirror.test/anaconda/pkgs/r'

describe('mamba through resilient (replayed output)', () => {
  it('mamba 2.x: recovers with --channel-alias, as micromamba', async () => {
    const run = await runWithFakes(['mamba', 'install', '-c', 'conda-forge', 'numpy'], { config, healthy: CONDA_MIRROR, env: { FAKE_MAMBA_VERSION: '2.0.5' } })
    expect(run.exitCode, run.all).toBe(0)
    expect(run.calls.filter(call => call.argv[0] === '--version')).toHaveLength(1)
    expect(run.attempts.map(call => call.argv)).toEqual([['install', '-c', 'conda-forge', 'numpy'], ['install', '-c', 'conda-forge', 'numpy', '--channel-alias', CONDA_MIRROR]])
    expect(run.added).toEqual([{}, { MAMBA_DEFAULT_CHANNELS: DEFAULTS }])
    expect(run.report?.attempts[0]?.diagnosis?.category).toBe('timeout')
  })

  it('mamba 1.x: recovers with CONDA_CHANNEL_ALIAS, as conda', async () => {
    const run = await runWithFakes(['mamba', 'install', '-c', 'conda-forge', 'numpy'], { config, healthy: CONDA_MIRROR, env: { FAKE_MAMBA_VERSION: '1.5.8' } })
    expect(run.exitCode, run.all).toBe(0)
    expect(run.attempts.map(call => call.argv)).toEqual([['install', '-c', 'conda-forge', 'numpy'], ['install', '-c', 'conda-forge', 'numpy']])
    expect(run.added).toEqual([{}, { CONDA_CHANNEL_ALIAS: CONDA_MIRROR, CONDA_DEFAULT_CHANNELS: DEFAULTS }])
  })

  it('never replaces a private channel', async () => {
    const run = await runWithFakes(['--max-attempts', '2', 'mamba', 'create', '-n', 'e', '-c', 'https://conda.corp.example/internal', 'x'], { config, healthy: CONDA_MIRROR })
    expect(run.exitCode).toBe(1)
    expect(run.attempts.map(call => call.argv.includes('--channel-alias'))).toEqual([false, false])
  })

  it('prints the planned attempts for the installed generation', async () => {
    const run = await dryRun(['mamba', 'install', 'numpy'], { config, env: { FAKE_MAMBA_VERSION: '2.1.0' } })
    expect(run.lines).toEqual([
      'mamba install numpy',
      `MAMBA_DEFAULT_CHANNELS=${DEFAULTS} mamba install numpy --channel-alias ${CONDA_MIRROR}`,
    ])
  })
})
