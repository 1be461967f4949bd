// A stand-in for a package manager that cannot be installed on the test machines (uv, conda, mamba, micromamba,
// pixi, pdm). It records what it was given (argv, its settings variables, the config files it was pointed at) in
// $FAKE_TOOL_LOG, then succeeds if the attempt uses $FAKE_HEALTHY_INDEX, and otherwise replays real captured output
// of that tool failing on a bad network (replay/<name>.txt, whose first line says where it comes from).
import { appendFileSync, existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const SETTINGS = /^(UV_|CONDA_|MAMBA_|PIXI_|PDM_|PIP_|POETRY_|NETRC$)/
const here = dirname(fileURLToPath(import.meta.url))

/** The value of `--name value` or `--name=value` in argv. */
export function optionValue(argv, name) {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === name) return argv[i + 1]
    if (argv[i].startsWith(`${name}=`)) return argv[i].slice(name.length + 1)
  }
  return undefined
}

/**
 * @param {object} tool
 * @param {string} tool.name
 * @param {(argv: string[], env: NodeJS.ProcessEnv, files: Record<string, string>) => string | undefined} tool.indexOf
 *   the index this attempt would use, read the way the real tool reads it
 * @param {string} tool.replay the default replay file (FAKE_REPLAY overrides it)
 * @param {number} [tool.exitCode] what the real tool exits with on that failure
 * @param {(env: NodeJS.ProcessEnv) => string} [tool.version] what `--version` prints
 * @param {(argv: string[], index: string) => Promise<{ exitCode: number, log: string[] }> | undefined} [tool.requests]
 *   with FAKE_TOOL_REQUESTS=1, the tool's own HTTP requests replayed against its index instead (uv-requests.mjs);
 *   what it asked is logged, one JSON list per run, in $FAKE_TOOL_LOG.requests
 */
export function runFake({ name, indexOf, replay, exitCode = 1, version, requests }) {
  const argv = process.argv.slice(2)
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => SETTINGS.test(key)))
  const files = {}
  for (const path of [process.env.PIXI_CONFIG_FILE, optionValue(argv, '--config-file')]) {
    if (path && existsSync(path)) files[path] = readFileSync(path, 'utf8')
  }
  if (process.env.FAKE_TOOL_LOG) appendFileSync(process.env.FAKE_TOOL_LOG, `${JSON.stringify({ tool: name, argv, env, files })}\n`)
  if (version && argv.length === 1 && argv[0] === '--version') {
    process.stdout.write(`${version(process.env)}\n`)
    return
  }
  const index = indexOf(argv, process.env, files)
  const replayed = process.env.FAKE_TOOL_REQUESTS === '1' && index ? requests?.(argv, index) : undefined
  if (replayed) {
    replayed.then(({ exitCode: code, log }) => {
      if (process.env.FAKE_TOOL_LOG) appendFileSync(`${process.env.FAKE_TOOL_LOG}.requests`, `${JSON.stringify(log)}\n`)
      process.exitCode = code
    })
    return
  }
  const healthy = process.env.FAKE_HEALTHY_INDEX
  if (healthy && index && index.startsWith(healthy)) {
    process.stdout.write(`${name}: installed from ${index}\n`)
    return
  }
  const text = readFileSync(join(here, 'replay', `${process.env.FAKE_REPLAY ?? replay}.txt`), 'utf8')
  process.stderr.write(text.slice(text.indexOf('\n') + 1))
  process.exitCode = exitCode
}
