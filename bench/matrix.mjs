// The differential matrix of "never worse than the plain tool" (test/support/differential): every network condition run
// by the real pip, npm, pnpm and yarn alone and through resilient, one after the other against fresh local servers
// with the same faults. Printed as a table (won, equal, lost; time ratios: bench/matrix-render.mjs); `--only=matrix
// --write` renders it into README.md and docs/benchmarks.md. The e2e tests (test/e2e/differential-*.e2e.test.ts) assert no case is lost.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runMatrix } from '../build/bench/testing.js'

const NODE_MODULES = fileURLToPath(new URL('../node_modules/', import.meta.url))
const LAUNCHERS = { pnpm: join(NODE_MODULES, 'pnpm', 'bin', 'pnpm.cjs'), yarn: join(NODE_MODULES, 'yarn', 'bin', 'yarn.js') }

/**
 * The machine's CA bundles and proxies, removed as the e2e test removes them (test/helpers/isolated-env.ts): the
 * cases set their own (an https index and its certificate, a proxy), and pip lets REQUESTS_CA_BUNDLE override its own
 * --cert (measured, pip 23.2.1): the https cases would fail both ways and check nothing.
 */
const MACHINE_TRUST = /^(REQUESTS_CA_BUNDLE|CURL_CA_BUNDLE|SSL_CERT_FILE|SSL_CERT_DIR|NODE_EXTRA_CA_CERTS|HTTPS?_PROXY|https?_proxy|ALL_PROXY|all_proxy|NO_PROXY|no_proxy)$/

/** A folder holding `pnpm` and `yarn` (1.x) as the devDependencies provide them, first on PATH. */
function toolBin() {
  const bin = mkdtempSync(join(tmpdir(), 'bench-tools-'))
  for (const [name, script] of Object.entries(LAUNCHERS)) {
    writeFileSync(join(bin, name), `#!/bin/sh\nexec "${process.execPath}" "${script}" "$@"\n`)
    chmodSync(join(bin, name), 0o755)
  }
  return bin
}

export async function measureMatrix({ cli, cleanEnv, quick, log }) {
  const bin = toolBin()
  const env = () => {
    const base = Object.fromEntries(Object.entries(cleanEnv()).filter(([name]) => !MACHINE_TRUST.test(name)))
    return { ...base, PATH: `${bin}${delimiter}${base.PATH}` }
  }
  // --quick: pip and npm only.
  const only = quick ? entry => entry.tool === 'pip' || entry.tool === 'npm' : undefined
  log(`(matrix) the plain tool and resilient one after the other, each case on fresh servers${quick ? ' (pip and npm only)' : ''} ...`)
  const cases = await runMatrix({ cli, env, concurrency: 2, slackMs: 3000, sequential: true, only })
  // Without the tools' output (kept for the e2e test's messages); the rest as measured.
  return cases.map(({ id, fault, tool, topology, expected, plain: { output: _plain, ...plain }, resilient: { output: _ours, ...resilient }, verdict, why }) =>
    ({ id, fault, tool, topology, expected, plain, resilient, verdict, why }))
}
