import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildWheel, startPypiServer, type PypiServer } from '../helpers/fake-pypi.js'
import { startNpmRegistry, type NpmRegistry } from '../helpers/fake-npm-registry.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { inTerminal, pty, type TerminalStep } from '../helpers/pty.js'
import { distributions, projectDir } from '../helpers/run-helpers.js'
import { itNeeding, onDisk } from '../helpers/requirements.js'

// The one question, answered in a real pseudo-terminal (node-pty, an optional dependency: skipped without it).

let registry: NpmRegistry
let index: PypiServer

beforeAll(async () => {
  registry = await startNpmRegistry({ packages: [{ name: 'lodash', version: '4.17.21' }, { name: 'left-pad', version: '1.3.0' }] })
  index = await startPypiServer({ wheels: [buildWheel('opencv-python', '4.10.0', { module: 'cv2' })] })
})

afterAll(async () => {
  await registry?.close()
  await index?.close()
})

/** The built CLI in a wide terminal, run in `cwd`. */
const inTerminalAt = (cwd: string, args: string[], steps: TerminalStep[], timeoutMs?: number) =>
  inTerminal(args, steps, { name: 'xterm-256color', cols: 160, rows: 50, cwd, env: isolatedEnv(), timeoutMs })

const project = (script: string) => projectDir({ 'package.json': '{"name":"app","version":"1.0.0"}', 'app.js': script }, { npm: { index: registry.url, mirrors: [] } })
const QUESTION = /Install lodash and run the command again\? \(Y\/n\)/

describe.skipIf(!pty)('resilient run asks once in a terminal', () => {
  it('shows the package, the index, the command and the re-run, and installs on Enter (default yes)', async () => {
    const cwd = project('require("lodash")\nconsole.log("ran with lodash")\n')
    const { exitCode, screen } = await inTerminalAt(cwd, ['run', '--', 'node', 'app.js'], [[QUESTION, '\r']])
    expect(exitCode, screen).toBe(0)
    expect(screen).toMatch(/cannot import "lodash"[\s\S]*lodash \(the newest on the index\) for "lodash"[\s\S]*reviewed/)
    expect(screen).toMatch(/index: +http:\/\/127\.0\.0\.1:\d+\/[\s\S]*command: +npm install --no-save --ignore-scripts -- lodash/)
    expect(screen).toMatch(/Then the command runs again from the start/)
    expect(screen).toMatch(/ran with lodash/)
    expect(existsSync(join(cwd, 'node_modules/lodash'))).toBe(true)
  })

  it('proposes an unreviewed name with a default no (77), and installs it only on an explicit yes', async () => {
    const declined = project('require("left-pad")\n')
    const no = await inTerminalAt(declined, ['run', '--yes', '--', 'node', 'app.js'], [[/Install left-pad and run the command again\? \(y\/N\)/, '\r']])
    expect(no.exitCode).toBe(77)
    expect(no.screen).toMatch(/NOT REVIEWED[\s\S]*Check each NOT REVIEWED name on the registry/)
    expect(no.screen).toMatch(/nothing was installed: you declined/)
    expect(existsSync(join(declined, 'node_modules'))).toBe(false)

    const accepted = project('require("left-pad")\nconsole.log("padded")\n')
    const yes = await inTerminalAt(accepted, ['run', '--', 'node', 'app.js'], [[/Install left-pad and run the command again\? \(y\/N\)/, 'y\r']])
    expect(yes.exitCode, yes.screen).toBe(0)
    expect(yes.screen).toMatch(/padded/)
    expect(existsSync(join(accepted, 'node_modules/left-pad'))).toBe(true)
  })

  it('never asks with --no-input: the script\'s own status', async () => {
    const cwd = project('require("lodash")\n')
    const { exitCode, screen } = await inTerminalAt(cwd, ['--no-input', 'run', '--', 'node', 'app.js'], [])
    expect(exitCode).toBe(1)
    expect(screen).not.toMatch(QUESTION)
    expect(screen).toMatch(/nothing was installed: there is no terminal to ask in/)
  })

  it('exits 130 on Ctrl-C at the question, installing nothing', async () => {
    const cwd = project('require("lodash")\n')
    const { exitCode } = await inTerminalAt(cwd, ['run', '--', 'node', 'app.js'], [[QUESTION, '\x03']])
    expect(exitCode).toBe(130)
    expect(existsSync(join(cwd, 'node_modules'))).toBe(false)
  })

  it.each([['SIGTERM', 143], ['SIGHUP', 129]] as const)('ends the question at once on %s (%i), installing nothing', async (signal, code) => {
    const cwd = project('require("lodash")\n')
    const { exitCode, ms } = await inTerminalAt(cwd, ['run', '--', 'node', 'app.js'], [[QUESTION, terminal => terminal.kill(signal)]])
    expect(exitCode).toBe(code)
    expect(ms).toBeLessThan(10_000)
    expect(existsSync(join(cwd, 'node_modules'))).toBe(false)
  })

  const debianPython = '/usr/bin/python3'
  // Debian's python3 with python3-venv (ensurepip), as on this project's machines.
  itNeeding(onDisk('Debian\'s python3 under PEP 668 with python3-venv', '/usr/lib/python3.11/EXTERNALLY-MANAGED', debianPython, '/usr/lib/python3.11/ensurepip'), 'under PEP 668, creates ./.venv on request, installs there and runs the script with it', async () => {
    const cwd = projectDir({ 'app.py': 'import sys, cv2\nprint("ran in", sys.prefix)\n' }, { pypi: { index: index.url, mirrors: [] } })
    const { exitCode, screen } = await inTerminalAt(cwd, ['run', '--', debianPython, 'app.py'], [[/This Python is not a virtual environment\. What should resilient do\?[\s\S]*Nothing/, '\x1b[A\r']], 180_000)
    expect(exitCode, screen).toBe(0)
    expect(screen).toMatch(new RegExp(`ran in ${join(cwd, '.venv')}`))
    expect(screen).toMatch(/run the script with it from now on: .*\.venv\/bin\/python app\.py/)
    expect(await distributions(join(cwd, '.venv/bin/python'))).toContain('opencv-python')
  }, 200_000)
})
