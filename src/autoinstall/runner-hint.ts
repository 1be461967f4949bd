import { basename } from 'node:path'

// Runners that pick an environment themselves (`uv run`, `poetry run`...): which one they use cannot be told from
// the command, so resilient installs nothing and says how to name the environment's interpreter instead. Each
// value is the shell expression of that interpreter, from the tool's own documentation.
const RUNNERS: Record<string, string> = {
  uv: '.venv/bin/python', // uv run uses the project's .venv (UV_PROJECT_ENVIRONMENT)
  poetry: '"$(poetry env info --path)/bin/python"',
  pipenv: '"$(pipenv --venv)/bin/python"',
  pdm: '"$(pdm info --python)"',
  hatch: '"$(hatch env find)/bin/python"',
  rye: '.venv/bin/python',
  pixi: '.pixi/envs/default/bin/python',
  conda: '"$(conda run -n <env> python -c \'import sys; print(sys.executable)\')"',
  mamba: '"$(mamba run -n <env> python -c \'import sys; print(sys.executable)\')"',
  micromamba: '"$(micromamba run -n <env> python -c \'import sys; print(sys.executable)\')"',
  uvx: '', pipx: '', tox: '', nox: '',
}

/** When `argv` starts with a runner: why nothing is installed, and the command that would let resilient help. */
export function runnerHint(argv: string[]): { reason: string; hint?: string } | undefined {
  const name = basename(argv[0] ?? '').replace(/\.exe$/, '')
  if (!Object.hasOwn(RUNNERS, name)) return undefined
  const interpreter = RUNNERS[name]!
  const reason = `\`${name}${argv[1] === 'run' ? ' run' : ''}\` chooses the environment itself, and resilient cannot see which one it used, so it installs nothing there`
  // `poetry run python app.py` → the rest after the interpreter; `poetry run app.py` → the whole rest.
  const rest = argv.slice(argv[1] === 'run' ? 2 : 1)
  const script = /^python(\d+(\.\d+)?)?$/.test(rest[0] ?? '') ? rest.slice(1) : rest
  const hint = interpreter ? `Run it with that environment's interpreter, so that resilient can install into it: resilient run -- ${interpreter} ${script.join(' ')}`.trimEnd() : undefined
  return { reason, hint }
}
