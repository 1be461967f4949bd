import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ResilientError, EXIT } from '../../errors.js'
import { startPypiServer } from '../../demo/pypi-server.js'
import { buildWheel } from '../../demo/wheel.js'
import { which } from '../../tools/argv/which.js'

/**
 * pip in the demo must behave the same on every machine: no PIP_* variables, no pip.conf. resilient in the demo keeps
 * its state and logs in the demo's own directory and reads no user config: its loopback servers must not show up in
 * `resilient mirrors` or `resilient logs`, and the person's settings must not change what the demo shows.
 */
function demoEnvironment(project: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) if (!/^(PIP_|RESILIENT_)/.test(name)) env[name] = value
  return {
    ...env,
    PIP_CONFIG_FILE: '/dev/null', PIP_DISABLE_PIP_VERSION_CHECK: '1', PIP_NO_INPUT: '1',
    RESILIENT_STATE_DIR: join(project, 'state'), XDG_CONFIG_HOME: join(project, 'config'),
  }
}

/**
 * `resilient demo`: a black-holed index and a healthy mirror on 127.0.0.1, and the real pip run through resilient,
 * so a newcomer sees a recovery within seconds on a machine without network access.
 */
export async function runDemo(): Promise<number> {
  const python = ['python3', 'python'].find(name => which(name, process.env))
  if (!python) throw new ResilientError('The demo needs Python with pip (python3 -m pip), and none was found on PATH.', EXIT.notFound, 'Install Python 3, or run the tests instead: npm test.')
  const wheel = buildWheel('resilient-demo', '1.0')
  const primary = await startPypiServer({ wheels: [wheel], fault: { kind: 'blackhole' } })
  const mirror = await startPypiServer({ wheels: [wheel] })
  const project = mkdtempSync(join(tmpdir(), 'resilient-demo-'))
  const dest = join(project, 'downloads')
  // The restart loop, which shows each step; through the relay (the default, docs/relay.md) pip would not notice at all.
  writeFileSync(join(project, '.resilientrc.json'), JSON.stringify({ relay: false, pypi: { index: primary.url, mirrors: [mirror.url] } }, null, 2))
  const say = (line = '') => process.stderr.write(`${line}\n`)
  say('resilient demo: two package indexes on this machine, and the real pip.')
  say(`  primary  ${primary.url}  accepts connections and never answers (a black hole)`)
  say(`  mirror   ${mirror.url}  healthy; serves ${wheel.filename}, built just now`)
  say(`  config   ${join(project, '.resilientrc.json')}`)
  say(`  state    ${join(project, 'state')} (removed afterwards: your own mirror health and run logs are left alone)`)
  say('Plain pip would wait 15 s x 6 tries (about 98 s) and then report "No matching distribution found".')
  say()
  say(`$ resilient ${python} -m pip download resilient-demo --no-deps -d ${dest}`)
  const { execa } = await import('execa')
  const started = Date.now()
  try {
    const result = await execa(process.execPath, [process.argv[1]!, python, '-m', 'pip', 'download', 'resilient-demo', '--no-deps', '-d', dest],
      { cwd: project, env: demoEnvironment(project), extendEnv: false, stdio: 'inherit', reject: false })
    say()
    const files = readdirSync(dest, { withFileTypes: true }).map(entry => entry.name)
    if (result.exitCode === 0 && files.includes(wheel.filename)) {
      say(`Demo finished in ${((Date.now() - started) / 1000).toFixed(1)} s: ${wheel.filename} was downloaded from the mirror after the primary stopped answering.`)
      say('Next: `resilient why <log>` explains a saved failure; `resilient --dry-run pip install torch` shows the mirrors it would try.')
      return 0
    }
    say(`The demo did not recover (exit ${result.exitCode}). This is a bug, or pip is unusable here: try "${python} -m pip --version".`)
    return result.exitCode ?? 1
  } finally {
    await Promise.all([primary.close(), mirror.close()])
    rmSync(project, { recursive: true, force: true })
  }
}
