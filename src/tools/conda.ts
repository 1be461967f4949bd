import { applyCondaIndex, CONDA_KNOBS, condaFamilyAdapter, CONDA_NO_RELAY, condaReadOnly } from './conda-family.js'

export const conda = condaFamilyAdapter({
  name: 'conda',
  shimNames: ['conda'],
  executables: /^conda(\.exe|\.bat)?$/,
  flavor: { argparse: true, mamba: false },
  knobs: CONDA_KNOBS,
  readOnly: condaReadOnly({ words: ['-V'], exact: true }),
  // Variables, not `-c <mirror>/<name> --override-channels`: the alias also redirects channels named in .condarc,
  // environment files and `channel::package` specs, and nothing is written (conda has no --channel-alias flag).
  applyIndex: applyCondaIndex,
  noRelay: CONDA_NO_RELAY,
  verified: 'replay',
  forms: '`conda install\\|create\\|update\\|env create\\|env update ...`',
  mirrorMechanism: '`CONDA_CHANNEL_ALIAS=<mirror>` (plus `CONDA_DEFAULT_CHANNELS` when the mirror serves `defaults`); channel URLs on conda.anaconda.org in the arguments are pointed at the mirror',
})
