// The differential matrix of "never worse than the plain tool" (test/support/differential): every network condition run
// by the real pip, npm, pnpm, yarn 1, yarn berry, bun, cargo, go, pipx, pdm and poetry alone and through resilient, one
// after the other against fresh
// local servers with the same faults. Printed as a table (won, equal, lost; time ratios: bench/matrix-render.mjs);
// `--only=matrix --write` renders it into README.md and docs/benchmarks.md. The e2e tests
// (test/e2e/differential-*.e2e.test.ts) assert no case is lost.
import { delimiter } from 'node:path'
import { runMatrix } from '../build/bench/testing.js'
import { bunExecutable, SCRIPTS, toolPath } from './tool-path.mjs'

/**
 * The machine's CA bundles and proxies, removed as the e2e test removes them (test/helpers/isolated-env.ts): the
 * cases set their own (an https index and its certificate, a proxy), and pip lets REQUESTS_CA_BUNDLE override its own
 * --cert (measured, pip 23.2.1): the https cases would fail both ways and check nothing. So are the other tools'
 * settings (an index, a timeout, retries), which would change what the plain tool does.
 */
const MACHINE_SETTINGS = /^(REQUESTS_CA_BUNDLE|CURL_CA_BUNDLE|SSL_CERT_FILE|SSL_CERT_DIR|NODE_EXTRA_CA_CERTS|HTTPS?_PROXY|https?_proxy|ALL_PROXY|all_proxy|NO_PROXY|no_proxy)$|^(POETRY_|PDM_|PIPX_|CARGO_)|^GO(PROXY|PRIVATE|FLAGS|SUMDB|NOSUMDB|NOPROXY)$/

/** The matrix's tools other than pip and npm, each in a folder of its own under the name people type (yarn 1 and berry share `yarn`). */
const TOOL_PATHS = {
  pnpm: { name: 'pnpm', script: SCRIPTS.pnpm },
  yarn: { name: 'yarn', script: SCRIPTS.yarn1 },
  berry: { name: 'yarn', script: SCRIPTS.berry },
  bun: { name: 'bun', binary: bunExecutable() },
}

// --quick: every row of pip and npm; of the other tools (the npm family's, cargo, go, pipx, pdm, poetry), one fault on
// the index's page and one on the file.
const QUICK_ROWS = new Set(['one-503', 'break-80'])

/** Whether one of `rows` (`tool`, `case` or `tool:case`) names the entry. */
export const named = (rows, { tool, case: { id } }) => rows.some(row => row === tool || row === id || row === `${tool}:${id}`)

export async function measureMatrix({ cli, cleanEnv, quick, rows, log }) {
  const bins = Object.fromEntries(Object.entries(TOOL_PATHS).map(([tool, how]) => [tool, toolPath(how)]))
  const env = tool => {
    const base = Object.fromEntries(Object.entries(cleanEnv()).filter(([name]) => !MACHINE_SETTINGS.test(name)))
    return bins[tool] ? { ...base, PATH: `${bins[tool]}${delimiter}${base.PATH}` } : base
  }
  const inQuick = entry => !quick || entry.tool === 'pip' || entry.tool === 'npm' || QUICK_ROWS.has(entry.case.id)
  const only = entry => inQuick(entry) && (!rows || named(rows, entry))
  log(`(matrix) the plain tool and resilient one after the other, each case on fresh servers${quick ? ' (pip and npm; the other tools: one 503, a break at 80 %)' : ''} ...`)
  const cases = await runMatrix({ cli, env, concurrency: 2, slackMs: 3000, sequential: true, only })
  // Without the tools' output (kept for the e2e test's messages); the rest as measured.
  return cases.map(({ id, fault, tool, topology, expected, plain: { output: _plain, ...plain }, resilient: { output: _ours, ...resilient }, verdict, why, aim }) =>
    ({ id, fault, tool, topology, expected, plain, resilient, verdict, why, ...aim && { aim } }))
}
