import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { installShims } from '../../../src/shims/install.js'

/** A tool that prints who it is and its arguments. */
function fakeTool(dir: string, name: string, says: string): void {
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, name), `#!/bin/sh\necho "${says}: $*"\n`, { mode: 0o755 })
}

function setup() {
  const root = mkdtempSync(join(tmpdir(), 'resilient-shim-'))
  const shims = join(root, 'shims')
  const otherShims = join(root, 'old-shims')
  const real = join(root, 'real')
  // Stands in for resilient's bin: prints the arguments the shim passed.
  const cli = join(root, 'fake-resilient.js')
  writeFileSync(cli, 'process.stdout.write(`resilient ${JSON.stringify(process.argv.slice(2))}\\n`)\n')
  installShims({ dir: shims, tools: ['pip'], node: process.execPath, cli, resilientVersion: 'test' })
  installShims({ dir: otherShims, tools: ['pip'], node: process.execPath, cli, resilientVersion: 'test' })
  fakeTool(real, 'pip', 'real pip')
  const env = { PATH: [shims, otherShims, real, '/usr/bin', '/bin'].join(':') }
  return { shims, real, cli, env, root }
}

const run = (file: string, args: string[], env: Record<string, string>) => spawnSync(file, args, { env, encoding: 'utf8' })

describe('a shim', () => {
  it('runs the tool through resilient, passing every argument untouched', () => {
    const { shims, env } = setup()
    const result = run(join(shims, 'pip'), ['install', 'a b', '--', '-x', "it's"], env)
    expect(result.stdout).toBe(`resilient ${JSON.stringify(['shim', 'run', 'pip', 'install', 'a b', '--', '-x', "it's"])}\n`)
  })

  it('inside a resilient run, runs the real tool directly, skipping every shim directory', () => {
    const { shims, env } = setup()
    const result = run(join(shims, 'pip'), ['--version'], { ...env, RESILIENT_ACTIVE: '1' })
    expect(result.stdout).toBe('real pip: --version\n')
    expect(result.status).toBe(0)
  })

  it('can be bypassed with RESILIENT_NO_SHIM=1', () => {
    const { shims, env } = setup()
    expect(run(join(shims, 'pip'), ['list'], { ...env, RESILIENT_NO_SHIM: '1' }).stdout).toBe('real pip: list\n')
  })

  it('a shimmed pip started by a shimmed pip is not wrapped twice', () => {
    const { shims, root, env } = setup()
    // The "real" pip calls pip again by name, as pip's build subprocesses do.
    const real2 = join(root, 'real2')
    mkdirSync(real2)
    writeFileSync(join(real2, 'pip'), '#!/bin/sh\nif [ "$1" = outer ]; then pip inner; else echo "real inner: $*"; fi\n', { mode: 0o755 })
    const result = run(join(shims, 'pip'), ['outer'], { PATH: [shims, real2, '/usr/bin', '/bin'].join(':'), RESILIENT_ACTIVE: '1' })
    expect(result.stdout).toBe('real inner: inner\n')
  })

  it('exits 127 with a message when no real tool is left on PATH', () => {
    const { shims } = setup()
    const result = run(join(shims, 'pip'), [], { PATH: `${shims}:/nonexistent`, RESILIENT_ACTIVE: '1' })
    expect(result.status).toBe(127)
    expect(result.stderr).toMatch(/the real pip was not found on PATH/)
  })

  it('falls back to node on PATH when the recorded node is gone (nvm switched)', () => {
    const { root, cli, real } = setup()
    const dir = join(root, 'moved')
    installShims({ dir, tools: ['pip'], node: '/nonexistent/node', cli, resilientVersion: 'test' })
    const nodeDir = join(root, 'nodebin')
    mkdirSync(nodeDir)
    writeFileSync(join(nodeDir, 'node'), `#!/bin/sh\nexec '${process.execPath}' "$@"\n`, { mode: 0o755 })
    chmodSync(join(nodeDir, 'node'), 0o755)
    const result = run(join(dir, 'pip'), ['x'], { PATH: [dir, nodeDir, real, '/usr/bin', '/bin'].join(':') })
    expect(result.stdout).toBe(`resilient ${JSON.stringify(['shim', 'run', 'pip', 'x'])}\n`)
  })

  it('is valid POSIX sh', () => {
    const { shims } = setup()
    expect(() => execFileSync('sh', ['-n', join(shims, 'pip')])).not.toThrow()
  })
})
