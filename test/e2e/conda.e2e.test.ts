import { describe, expect, it } from 'vitest'
import { CONDA_MIRROR, dryRun, runWithFakes } from '../helpers/fake-tools.js'

// conda cannot be installed here: a fake conda replays conda's real "HTTP 000 CONNECTION FAILED" output.
const config = { conda: { mirrors: [CONDA_MIRROR] } }
const MIRRORED = {
  CONDA_CHANNEL_ALIAS: CONDA_MIRROR,
  CONDA_DEFAULT_CHANNELS: 'https://conda-mirror.test/anaconda/pkgs/main,https://conda-mirror.test/anaconda/pkgs/r',
}
// The user of the captured failure (tuna/issues#1283) had TUNA as channel alias, as many do.
const tunaRc = { '.condarc': 'channel_alias: https://mirrors.tuna.tsinghua.edu.cn/anaconda/cloud\nchannels:\n  - conda-forge\n' }

describe('conda through resilient (replayed output)', () => {
  it('moves from the user mirror to another one by CONDA_CHANNEL_ALIAS', async () => {
    const run = await runWithFakes(['conda', 'install', '-c', 'conda-forge', 'numpy'], { config, home: tunaRc, healthy: CONDA_MIRROR })
    expect(run.exitCode, run.all).toBe(0)
    expect(run.attempts.map(call => call.argv)).toEqual([['install', '-c', 'conda-forge', 'numpy'], ['install', '-c', 'conda-forge', 'numpy']])
    // conda's own timeouts and retries are never touched: the first attempt runs as typed.
    expect(run.added).toEqual([{}, MIRRORED])
    expect(run.report?.attempts[0]?.diagnosis?.category).toBe('connection')
    expect(run.stderr).toMatch(/switched to mirror conda-mirror\.test/)
  })

  it('points a channel URL on conda.anaconda.org at the mirror', async () => {
    const run = await runWithFakes(['conda', 'env', 'create', '-f', 'environment.yml', '-c', 'https://conda.anaconda.org/bioconda'], {
      config, healthy: CONDA_MIRROR, files: { 'environment.yml': 'name: e\nchannels: [conda-forge]\ndependencies: [python]\n' },
    })
    expect(run.exitCode, run.all).toBe(0)
    expect(run.attempts[1]?.argv).toEqual(['env', 'create', '-f', 'environment.yml', '-c', `${CONDA_MIRROR}/bioconda`])
  })

  it('never replaces a private channel', async () => {
    const run = await runWithFakes(['--max-attempts', '2', 'conda', 'install', '-c', 'https://conda.corp.example/internal', 'numpy'], { config, healthy: CONDA_MIRROR })
    expect(run.exitCode).toBe(1)
    expect(run.attempts.map(call => call.argv)).toEqual([
      ['install', '-c', 'https://conda.corp.example/internal', 'numpy'], ['install', '-c', 'https://conda.corp.example/internal', 'numpy']])
    expect(run.added).toEqual([{}, {}])
  })

  it('never replaces a private channel_alias from .condarc', async () => {
    const run = await runWithFakes(['--max-attempts', '2', 'conda', 'install', 'numpy'], { config, healthy: CONDA_MIRROR, home: { '.condarc': 'channel_alias: https://conda.corp.example\n' } })
    expect(run.exitCode).toBe(1)
    expect(run.added).toEqual([{}, {}])
  })

  it('never points conda at the relay, which it would record in conda-meta, and says so under -v', async () => {
    const run = await runWithFakes(['-v', 'conda', 'install', 'numpy'], { config, healthy: CONDA_MIRROR })
    expect(run.exitCode, run.all).toBe(0)
    expect(run.stderr).toMatch(/no relay: conda records the URL of the channel it downloads from in conda-meta/)
    expect(run.added[0]).toEqual({})
    expect(run.attempts[0]!.argv).toEqual(['install', 'numpy'])
  })

  it('prints the planned attempts with the mirror in the environment', async () => {
    const run = await dryRun(['conda', 'install', 'numpy'], { config })
    expect(run.lines).toEqual([
      'conda install numpy',
      `CONDA_CHANNEL_ALIAS=${CONDA_MIRROR} CONDA_DEFAULT_CHANNELS=${MIRRORED.CONDA_DEFAULT_CHANNELS} conda install numpy`,
    ])
  })
})
