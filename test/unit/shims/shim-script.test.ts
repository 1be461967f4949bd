import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { installShims } from '../../../src/shims/install.js'
import { readOnlyFunction } from '../../../src/shims/read-only-script.js'
import { renderCmdShim } from '../../../src/shims/shim-script.js'
import { readOnlyFormsFor, SHIM_CANDIDATES } from '../../../src/shims/tool-names.js'
import { isReadOnly } from '../../../src/tools/argv/read-only.js'

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
  // Stands in for node: records that it was started, then runs the real one.
  const nodeStarts = join(root, 'node-starts')
  const node = join(root, 'node')
  writeFileSync(node, `#!/bin/sh\necho started >> '${nodeStarts}'\nexec '${process.execPath}' "$@"\n`, { mode: 0o755 })
  installShims({ dir: shims, tools: ['pip'], node, cli, resilientVersion: 'test' })
  installShims({ dir: otherShims, tools: ['pip'], node, cli, resilientVersion: 'test' })
  fakeTool(real, 'pip', 'real pip')
  const env = { PATH: [shims, otherShims, real, '/usr/bin', '/bin'].join(':') }
  return { shims, real, cli, env, root, nodeStarts: () => existsSync(nodeStarts) ? readFileSync(nodeStarts, 'utf8').split('\n').filter(Boolean).length : 0 }
}

const run = (file: string, args: string[], env: Record<string, string>) => spawnSync(file, args, { env, encoding: 'utf8' })

describe('a shim', () => {
  it('runs the tool through resilient, passing every argument untouched', () => {
    const { shims, env } = setup()
    const result = run(join(shims, 'pip'), ['install', 'a b', '--', '-x', "it's"], env)
    expect(result.stdout).toBe(`resilient ${JSON.stringify(['shim', 'run', 'pip', 'install', 'a b', '--', '-x', "it's"])}\n`)
  })

  it('runs a read-only call (a flag before the verb too) with the real tool directly, starting no node', () => {
    const { shims, env, nodeStarts } = setup()
    expect(run(join(shims, 'pip'), ['--version'], env).stdout).toBe('real pip: --version\n')
    expect(run(join(shims, 'pip'), ['--isolated', 'list', '--format', 'json'], env).stdout).toBe('real pip: --isolated list --format json\n')
    expect(run(join(shims, 'pip'), ['config', 'get', 'global.index-url'], env).stdout).toBe('real pip: config get global.index-url\n')
    expect(nodeStarts()).toBe(0)
    expect(run(join(shims, 'pip'), ['list', '--outdated'], env).stdout).toBe(`resilient ${JSON.stringify(['shim', 'run', 'pip', 'list', '--outdated'])}\n`)
    expect(nodeStarts()).toBe(1)
  })

  it('on the fast path, the exit status, a death by signal and a broken pipe are the real tool\'s own', () => {
    const { shims, root } = setup()
    const real = join(root, 'real-pip')
    mkdirSync(real)
    writeFileSync(join(real, 'pip'), `#!/bin/sh
case $2 in
  exit) exit 3 ;;
  signal) kill -TERM $$ ;;
  pipe) while :; do echo line; done ;;
esac
`, { mode: 0o755 })
    const env = { PATH: [shims, real, '/usr/bin', '/bin'].join(':') }
    for (const how of ['exit', 'signal']) {
      const shimmed = run(join(shims, 'pip'), ['show', how], env)
      const plain = run(join(real, 'pip'), ['show', how], env)
      expect([how, shimmed.status, shimmed.signal]).toEqual([how, plain.status, plain.signal])
    }
    expect(run(join(shims, 'pip'), ['show', 'exit'], env).status).toBe(3)
    // The writer gets SIGPIPE when the reader is gone, exactly as without the shim.
    const pipeStatus = (pip: string) => spawnSync('bash', ['-c', `'${pip}' show pipe | head -c 1 >/dev/null; echo \${PIPESTATUS[0]}`], { env, encoding: 'utf8' }).stdout
    expect(pipeStatus(join(shims, 'pip'))).toBe(pipeStatus(join(real, 'pip')))
    expect(pipeStatus(join(shims, 'pip'))).toBe('141\n')
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

  it('runs the real tool, with one line saying why, when resilient or its node is gone (uninstalled first)', () => {
    const { root, shims, cli, env } = setup()
    rmSync(cli)
    const gone = run(join(shims, 'pip'), ['install', 'x'], env)
    expect(gone.stdout).toBe('real pip: install x\n')
    expect(gone.status).toBe(0)
    expect(gone.stderr).toBe(`resilient shim: resilient is no longer installed here: running the real pip. To remove the shims: rm -r '${shims}', and the PATH line naming it in your shell profile.\n`)
    const noNode = join(root, 'no-node')
    writeFileSync(cli, '')
    installShims({ dir: noNode, tools: ['pip'], node: '/nonexistent/node', cli, resilientVersion: 'test' })
    const withoutNode = run(join(noNode, 'pip'), ['install', 'x'], { PATH: [noNode, join(root, 'real'), '/usr/bin', '/bin'].filter(dir => !existsSync(join(dir, 'node'))).join(':') })
    expect(withoutNode.stdout).toBe('real pip: install x\n')
    expect(withoutNode.stderr).toMatch(/^resilient shim: node is not found: running the real pip\./)
  })

  it('is valid POSIX sh', () => {
    const { shims } = setup()
    expect(() => execFileSync('sh', ['-n', join(shims, 'pip')])).not.toThrow()
  })
})

const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`
const WORDS = ['list', 'ls', 'config', 'get', 'set', 'env', 'pip', 'freeze', 'install', '--version', '--help', '-h', '-V', '-v', '-q',
  '--isolated', '--json', '-g', '--outdated', '--out', '-o', '-lo', '-u', '--user', '-w', '--w=x', 'info', 'numpy', '', '--', '*', "it's", 'a b', '-[o]']

describe('the shim\'s read_only() in sh', () => {
  const shells = [['sh'], ['bash', '--posix'], ['zsh', '--emulate', 'sh']].filter(([shell]) => spawnSync(shell!, ['-c', ':']).status === 0)
  const tools = SHIM_CANDIDATES.filter(name => readOnlyFormsFor(name))
  it.each(tools)('%s: answers exactly as isReadOnly, its specification, in every shell', name => {
    const forms = readOnlyFormsFor(name)!
    const word = fc.constantFrom(...new Set([...WORDS, ...forms.leadingFlags, ...forms.commands.flatMap(command => command.words)]))
    const shaped = fc.tuple(fc.constantFrom(...forms.commands), fc.array(word, { maxLength: 3 })).map(([command, rest]) => [...command.words, ...rest])
    const cases = fc.sample(fc.oneof(fc.array(word, { maxLength: 5 }), shaped), { numRuns: 400, seed: 15 })
    const script = [readOnlyFunction(forms), 't() { if read_only "$@"; then echo 1; else echo 0; fi; }', ...cases.map(args => `t ${args.map(quote).join(' ')}`)].join('\n')
    const expected = cases.map(args => (isReadOnly(forms, args) ? '1' : '0')).join('\n')
    for (const [shell, ...flags] of shells) {
      const result = spawnSync(shell!, [...flags, '-c', script], { encoding: 'utf8' })
      expect(result.stderr).toBe('')
      expect([shell, result.stdout.trim()]).toEqual([shell, expected])
    }
  })
})

describe('the Windows shim (content only: no Windows here)', () => {
  const text = renderCmdShim({ name: 'pip', node: 'C:\\node\\node.exe', cli: 'C:\\resilient\\bin\\resilient.js', resilientVersion: '1.2.3', readOnly: readOnlyFormsFor('pip') })
  const lines = text.split('\r\n')
  it('is a batch file with the marker on its second line and CRLF line ends', () => {
    expect(lines[0]).toBe('@echo off')
    expect(lines[1]).toBe('rem resilient-shim v2: pip')
    expect(text).not.toMatch(/[^\r]\n/)
  })
  it('runs the real tool, with one line saying why, when resilient is gone', () => {
    expect(lines).toContain('if not exist "C:\\resilient\\bin\\resilient.js" goto gone')
    expect(lines.slice(lines.indexOf(':gone'), lines.indexOf(':gone') + 3)).toEqual([':gone',
      'echo resilient shim: resilient is no longer installed here: running the real pip. To remove the shims: delete %~dp0 and its PATH entry. 1>&2', ''])
    expect(lines[lines.indexOf(':gone') + 3]).toBe(':real')
  })
  it('steps aside inside a resilient run or when asked to', () => {
    expect(lines).toContain('if defined RESILIENT_ACTIVE goto real')
    expect(lines).toContain('if defined RESILIENT_NO_SHIM goto real')
  })
  it('runs read-only calls directly: version alone, flags before the verb skipped, two-word commands', () => {
    expect(lines).toContain('call :read_only %*')
    expect(lines).toContain('if "%~1"=="--version" if "%~2"=="" exit /b 0')
    expect(lines).toContain('if "%~1"=="--isolated" (shift & goto read_only)')
    expect(lines).toContain('if "%~1"=="config" if "%~2"=="get" exit /b 0')
    expect(lines).toContain('if "%~1"=="freeze" exit /b 0')
  })
  it('leaves commands with a deny list to resilient (cmd has no patterns)', () => {
    expect(lines.some(line => line.startsWith('if "%~1"=="list"'))).toBe(false)
  })
  it('hands everything else to resilient, with the recorded node or node on PATH', () => {
    expect(lines).toContain('set "RESILIENT_NODE=C:\\node\\node.exe"')
    expect(lines).toContain('endlocal & "%RESILIENT_NODE%" "C:\\resilient\\bin\\resilient.js" shim run pip %*')
  })
  it('finds the real tool on PATH with PATHEXT, skipping every shim directory', () => {
    expect(text).toContain('if not exist "%%~D\\.resilient-shims" for %%E in (%PATHEXT%) do if exist "%%~D\\pip%%E"')
    expect(lines).toContain('endlocal & "%RESILIENT_REAL%" %*')
  })
})
