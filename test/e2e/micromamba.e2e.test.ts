import { describe, expect, it } from 'vitest'
import { CONDA_MIRROR, dryRun, runWithFakes } from '../helpers/fake-tools.js'

// micromamba cannot be installed here: a fake replays libmamba's real "Couldn't resolve host name" (mamba-org/mamba#3536).
const config = { conda: { mirrors: [CONDA_MIRROR] } }

describe('micromamba through resilient (replayed output)', () => {
  it('recovers from a DNS failure with --channel-alias', async () => {
    const run = await runWithFakes(['micromamba', 'create', '-n', 'e', '-c', 'conda-forge', 'python'], { config, healthy: CONDA_MIRROR })
    expect(run.exitCode, run.all).toBe(0)
    expect(run.attempts.map(call => call.argv)).toEqual([
      ['create', '-n', 'e', '-c', 'conda-forge', 'python'], ['create', '-n', 'e', '-c', 'conda-forge', 'python', '--channel-alias', CONDA_MIRROR]])
    expect(run.added).toEqual([{}, { MAMBA_DEFAULT_CHANNELS: 'https://conda-mirror.test/anaconda/pkgs/main,https://conda-mirror.test/anaconda/pkgs/r' }])
    expect(run.report?.attempts[0]?.diagnosis?.category).toBe('dns')
  })

  it('never points micromamba at the relay, which libmamba would record in conda-meta, and says so under -v', async () => {
    const run = await runWithFakes(['-v', 'micromamba', 'install', '-c', 'conda-forge', 'numpy'], { config, healthy: CONDA_MIRROR })
    expect(run.exitCode, run.all).toBe(0)
    expect(run.stderr).toMatch(/no relay: libmamba records the URL of the channel it downloads from/)
    expect(run.attempts[0]!.argv).toEqual(['install', '-c', 'conda-forge', 'numpy'])
    expect(run.added[0]).toEqual({})
  })

  it('never replaces a private channel from ~/.mambarc', async () => {
    const run = await runWithFakes(['--max-attempts', '2', 'micromamba', 'install', 'numpy'], {
      config, healthy: CONDA_MIRROR, home: { '.mambarc': 'channels:\n  - https://conda.corp.example/internal\n' },
    })
    expect(run.exitCode).toBe(1)
    expect(run.attempts.map(call => call.argv)).toEqual([['install', 'numpy'], ['install', 'numpy']])
    expect(run.added).toEqual([{}, {}])
  })

  it('prints the planned attempts with the mirror in the arguments', async () => {
    const run = await dryRun(['micromamba', 'install', 'numpy'], { config, env: { MAMBA_REMOTE_MAX_RETRIES: '3' } })
    expect(run.lines).toEqual(['micromamba install numpy', `MAMBA_DEFAULT_CHANNELS=https://conda-mirror.test/anaconda/pkgs/main,https://conda-mirror.test/anaconda/pkgs/r micromamba install numpy --channel-alias ${CONDA_MIRROR}`])
  })
})
