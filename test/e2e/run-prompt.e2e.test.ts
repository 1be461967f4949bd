import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startNpmRegistry, type NpmRegistry } from '../helpers/fake-npm-registry.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { CLI } from '../helpers/run-cli.js'
import { projectDir } from './run-helpers.js'

// The consent prompt, answered in a real pseudo-terminal (node-pty, an optional dependency: skipped without it).
type Pty = typeof import('node-pty')
const pty: Pty | undefined = (() => {
  try {
    return createRequire(import.meta.url)('node-pty') as Pty
  } catch {
    return undefined
  }
})()

let registry: NpmRegistry

beforeAll(async () => {
  registry = await startNpmRegistry({ packages: [{ name: 'lodash', version: '4.17.21' }, { name: 'left-pad', version: '1.3.0' }] })
})

afterAll(() => registry?.close())

/** Runs the built CLI in a terminal; `answer` types into it once the output matches. */
function inTerminal(cwd: string, args: string[], answers: [RegExp, string][]): Promise<{ exitCode: number; screen: string }> {
  return new Promise((resolve, reject) => {
    const child = pty!.spawn('node', [CLI, ...args], { name: 'xterm-256color', cols: 160, rows: 50, cwd, env: isolatedEnv() })
    let screen = ''
    const pending = [...answers]
    const timer = setTimeout(() => { child.kill(); reject(new Error(`timed out; the terminal showed:\n${screen}`)) }, 60_000)
    child.onData(data => {
      screen += data
      const next = pending[0]
      if (next && next[0].test(stripVTControlCharacters(screen))) {
        pending.shift()
        child.write(next[1])
      }
    })
    child.onExit(({ exitCode }) => {
      clearTimeout(timer)
      resolve({ exitCode, screen: stripVTControlCharacters(screen) })
    })
  })
}

const project = (script: string) => projectDir({ 'package.json': '{"name":"app","version":"1.0.0"}', 'app.js': script }, { npm: { index: registry.url, mirrors: [] } })

describe.skipIf(!pty)('resilient run asks in a terminal', () => {
  it('installs a reviewed name when Enter takes the default yes', async () => {
    const cwd = project('require("lodash")\nconsole.log("ran with lodash")\n')
    const { exitCode, screen } = await inTerminal(cwd, ['run', '--', 'node', 'app.js'], [[/Install lodash\? \(Y\/n\)/, '\r']])
    expect(exitCode, screen).toBe(0)
    expect(screen).toMatch(/cannot import "lodash"[\s\S]*reviewed[\s\S]*command: +npm install --no-save --ignore-scripts lodash/)
    expect(screen).toMatch(/ran with lodash/)
    expect(existsSync(join(cwd, 'node_modules/lodash'))).toBe(true)
  })

  it('proposes an unreviewed name with a default no, and installs it only on an explicit yes', async () => {
    const declined = project('require("left-pad")\n')
    const no = await inTerminal(declined, ['run', '--yes', '--', 'node', 'app.js'], [[/Install left-pad\? \(y\/N\)/, '\r']])
    expect(no.exitCode).toBe(1)
    expect(no.screen).toMatch(/Check the name on the registry before you say yes/)
    expect(no.screen).toMatch(/left-pad was not installed: you declined/)
    expect(existsSync(join(declined, 'node_modules'))).toBe(false)

    const accepted = project('require("left-pad")\nconsole.log("padded")\n')
    const yes = await inTerminal(accepted, ['run', '--', 'node', 'app.js'], [[/Install left-pad\? \(y\/N\)/, 'y\r']])
    expect(yes.exitCode, yes.screen).toBe(0)
    expect(yes.screen).toMatch(/padded/)
    expect(existsSync(join(accepted, 'node_modules/left-pad'))).toBe(true)
  })

  it('never asks with --no-input', async () => {
    const cwd = project('require("lodash")\n')
    const { exitCode, screen } = await inTerminal(cwd, ['--no-input', 'run', '--', 'node', 'app.js'], [])
    expect(exitCode).toBe(1)
    expect(screen).not.toMatch(/Install lodash\?/)
    expect(screen).toMatch(/lodash was not installed: there is no terminal to ask in/)
  })
})
