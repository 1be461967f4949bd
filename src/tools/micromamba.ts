import { applyMambaIndex, condaFamilyAdapter, condaReadOnly, MAMBA_KNOBS, MAMBA_NO_RELAY } from './conda-family.js'

// micromamba 1.x and 2.x take the same channel options (common_options.cpp has --channel-alias in both).
export const micromamba = condaFamilyAdapter({
  name: 'micromamba',
  shimNames: ['micromamba'],
  executables: /^micromamba(\.exe)?$/,
  flavor: { argparse: false, mamba: true },
  knobs: MAMBA_KNOBS,
  readOnly: condaReadOnly({ words: ['config', 'list'] }),
  applyIndex: applyMambaIndex,
  noRelay: MAMBA_NO_RELAY,
  verified: 'replay',
  forms: '`micromamba install\\|create\\|update ...` (1.x and 2.x)',
  mirrorMechanism: '`--channel-alias <mirror>` (plus `MAMBA_DEFAULT_CHANNELS` when the mirror serves `defaults`); channel URLs on conda.anaconda.org in the arguments are pointed at the mirror',
})
