import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { applyCondaIndex, applyMambaIndex, CONDA_KNOBS, CONDA_NO_RELAY, condaFamilyAdapter, condaReadOnly, MAMBA_KNOBS, MAMBA_NO_RELAY } from './conda-family.js'
import type { ToolAdapter } from './types.js'

/** mamba 1.x: a Python wrapper around conda, with conda's options, variables and rc files (mamba's docs/source/user_guide/configuration.rst). */
export const mambaClassic = condaFamilyAdapter({
  name: 'mamba-classic',
  // Never matched by name: `mamba` resolves to this adapter when `mamba --version` says 1.x.
  executables: /(?!)/,
  flavor: { argparse: true, mamba: false },
  knobs: CONDA_KNOBS,
  applyIndex: applyCondaIndex,
  noRelay: CONDA_NO_RELAY,
  verified: 'replay',
  forms: '`mamba install\\|create\\|update ...` (1.x and 2.x, told apart by `mamba --version`)',
  mirrorMechanism: '`CONDA_CHANNEL_ALIAS=<mirror>` (mamba 1.x reads conda\'s settings)',
})

/** mamba 2.x "has the exact same user interface and experience as micromamba" (mamba changes-2.0.rst). */
const mambaMicro = condaFamilyAdapter({
  name: 'mamba',
  shimNames: ['mamba'],
  executables: /^mamba(\.exe|\.bat)?$/,
  flavor: { argparse: false, mamba: true },
  knobs: MAMBA_KNOBS,
  // What both CLIs read alike: a shim cannot tell mamba 1 from 2 without running it.
  readOnly: condaReadOnly(),
  applyIndex: applyMambaIndex,
  noRelay: MAMBA_NO_RELAY,
  verified: 'replay',
  forms: '`mamba install\\|create\\|update ...` (1.x and 2.x, told apart by `mamba --version`)',
  mirrorMechanism: '2.x: `--channel-alias <mirror>`, as micromamba; 1.x: `CONDA_CHANNEL_ALIAS=<mirror>`, as conda',
})

/** mamba 1.x prints `mamba 1.5.8` and `conda 24.1.2`; mamba 2.x prints `2.0.5` alone. */
export function isMambaClassic(versionOutput: string): boolean {
  return /^conda \d/m.test(versionOutput) || /^(mamba\s+)?[01]\.\d+/m.test(versionOutput.trim())
}

export const mamba = {
  ...mambaMicro,
  async resolveVariant(executable: string, env: NodeJS.ProcessEnv): Promise<ToolAdapter> {
    const output = await promisify(execFile)(executable, ['--version'], { env, timeout: 10_000 }).then(result => result.stdout, () => '')
    // Unknown output (a wrapper script, a failed start): mamba 2's CLI is the current one.
    return isMambaClassic(output) ? mambaClassic : mambaMicro
  },
} satisfies ToolAdapter
