// Tools print each other's messages: pipx, conda's `pip:` section and `python -m pip` run pip; pixi, rye and pipx
// run uv; mamba, micromamba and pixi share conda's channels and solver wording. A rule names the family whose
// wording it reads.

/** pip, and the tools that run it or print its messages. */
export const PIP_FAMILY = ['pip', 'pipx', 'python', 'poetry', 'pdm', 'conda', 'mamba', 'micromamba'] as const
/** uv, and the tools that run it: pixi for PyPI dependencies, pdm with `use_uv` (it prints uv's report). */
export const UV_FAMILY = ['uv', 'pixi', 'pipx', 'pdm'] as const
/** conda and the tools that share its channels, solver and messages. */
export const CONDA_FAMILY = ['conda', 'mamba', 'micromamba', 'pixi'] as const
/** yarn classic and berry. */
export const YARN_FAMILY = ['yarn', 'yarn-berry'] as const
/** The npm registry clients and Node itself. */
export const NODE_FAMILY = ['npm', 'pnpm', 'yarn', 'yarn-berry', 'bun', 'node'] as const
/** Everything that runs Python code, where a Python traceback can end the output. */
export const PYTHON_FAMILY = [...new Set([...PIP_FAMILY, ...UV_FAMILY, ...CONDA_FAMILY])]
