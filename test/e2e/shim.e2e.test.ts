import { execa } from 'execa'
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { logsDirectory } from '../../src/paths.js'
import { buildWheel } from '../helpers/fake-pypi.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli } from '../helpers/run-cli.js'
import { filesIn, projectWithConfig, pypiServers } from '../helpers/e2e-setup.js'
import { command, describeNeeding } from '../helpers/requirements.js'

// Plain `pip ...` typed by a person, with resilient's shim directory first on PATH.
const server = pypiServers({ wheels: [buildWheel('demo-pkg', '1.0')] })

async function installShims(tools: string[], extra: Record<string, string> = {}) {
  const env = isolatedEnv({ SHELL: '/bin/bash', ...extra })
  const dir = join(env.HOME!, 'shims')
  const result = await runCli(['shim', 'install', '--dir', dir, ...tools], { env })
  expect(result.exitCode, String(result.stderr)).toBe(0)
  return { dir, result, env: { ...env, PATH: `${dir}:${env.PATH}` } }
}

describeNeeding(command('pip'), 'shims', () => {
  it('install prints the exact profile line on stdout and explains on stderr', async () => {
    const { dir, result } = await installShims(['pip'])
    expect(result.stdout).toBe(`export PATH="${dir}":"$PATH"`)
    expect(result.stderr).toContain(`Wrote shims for pip in ${dir}.`)
    expect(result.stderr).toContain('~/.bashrc')
  })

  it('pip --version through the shim prints exactly what the real pip prints', async () => {
    const { env } = await installShims(['pip'])
    const plain = await execa('pip', ['--version'], { env: isolatedEnv(), extendEnv: false, reject: false })
    const shimmed = await execa('pip', ['--version'], { env, extendEnv: false, reject: false })
    expect(shimmed.stdout).toBe(plain.stdout)
    expect(shimmed.stderr).toBe(plain.stderr)
    expect(shimmed.exitCode).toBe(plain.exitCode)
    // A read-only call: no run log.
    expect(filesIn(logsDirectory(env))).toEqual([])
  })

  it('a plain `pip download` against a black-holed index recovers on a mirror', async () => {
    const primary = await server({ fault: { kind: 'blackhole' } })
    const mirror = await server()
    const cwd = projectWithConfig({ pypi: { index: primary.url, mirrors: [mirror.url] } })
    const { env } = await installShims(['pip'])
    const dest = mkdtempSync(join(tmpdir(), 'resilient-dl-'))
    const result = await execa('pip', ['download', '--no-deps', '-d', dest, 'demo-pkg'], { cwd, env, extendEnv: false, reject: false, all: true })
    expect(result.exitCode, String(result.all)).toBe(0)
    expect(filesIn(dest)).toEqual(['demo_pkg-1.0-py3-none-any.whl'])
    expect(result.stderr).toMatch(/attempt 1 failed.*timeout/)
    expect(result.stderr).toMatch(/done in 2 attempts/)
    // Fast detection survives the shim: plain pip needs ~98 s to give up on a black hole (15 s × 6 tries); resilient
    // left it itself (hedged detection), before pip's first 15 s timeout.
    const [log] = readdirSync(logsDirectory(env)).map(file => JSON.parse(readFileSync(join(logsDirectory(env), file), 'utf8')))
    expect(log.attempts[0].diagnosis.category).toBe('timeout')
    expect(log.attempts[0].stoppedByResilient).toBe(true)
    expect(mirror.requests.some(path => path.startsWith('/files/'))).toBe(true)
  }, 120_000)

  it('a pip started by the shimmed pip runs the real pip directly, never wrapped twice', async () => {
    // A fake pip that calls pip again, as build subprocesses do; it reports what it sees.
    const { dir: shimDir } = await installShims(['pip'])
    const bin = mkdtempSync(join(tmpdir(), 'resilient-bin-'))
    writeFileSync(join(bin, 'pip'), `#!/bin/sh
if [ "$1" = outer ]; then echo "outer RESILIENT_ACTIVE=$RESILIENT_ACTIVE"; exec pip inner; fi
case ":$PATH:" in *":${shimDir}:"*) echo "inner sees the shim dir" ;; *) echo "inner runs directly" ;; esac
`, { mode: 0o755 })
    const env = isolatedEnv()
    const shimEnv = { ...env, PATH: `${shimDir}:${bin}:${env.PATH}` }
    const result = await execa('pip', ['outer'], { env: shimEnv, extendEnv: false, reject: false })
    // RESILIENT_ACTIVE=1: the outer pip ran through resilient.
    expect(result.stdout).toBe('outer RESILIENT_ACTIVE=1\ninner runs directly')
  })

  it('says what to do when the real tool is missing', async () => {
    const { dir } = await installShims(['pip'])
    const env = isolatedEnv({ PATH: `${dir}:${mkdtempSync(join(tmpdir(), 'empty-'))}` })
    const result = await execa(join(dir, 'pip'), ['install', 'x'], { env, extendEnv: false, reject: false })
    expect(result.exitCode).toBe(127)
    expect(result.stderr).toMatch(/"pip" was not found on PATH/)
  })

  it('uninstall removes the shims and names the profile line to delete', async () => {
    const { dir, env } = await installShims(['pip', 'pip3'])
    const result = await runCli(['shim', 'uninstall', '--dir', dir], { env })
    expect(result.exitCode).toBe(0)
    expect(result.stderr).toContain('Removed shims for pip, pip3')
    expect(result.stderr).toContain(`export PATH="${dir}":"$PATH"`)
    expect(filesIn(dir)).toEqual([])
  })

  it('refuses tools resilient cannot wrap: 64 when none is left, nothing written', async () => {
    const env = isolatedEnv()
    const result = await runCli(['shim', 'install', '--dir', join(env.HOME!, 's'), 'ls'], { env })
    expect(result.exitCode).toBe(64)
    expect(result.stderr).toMatch(/cannot wrap ls, so no shim was written/)
  })

  it('writes the others and names what it skipped, with the name it probably meant (exit 0)', async () => {
    const env = isolatedEnv({ SHELL: '/bin/bash' })
    const dir = join(env.HOME!, 's')
    const result = await runCli(['shim', 'install', '--dir', dir, 'npm', 'npx', 'pnpm', 'yarn', 'nmp'], { env })
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stderr).toMatch(/skipped nmp \(did you mean npm\?\): resilient cannot wrap it/)
    expect(result.stderr).toContain(`Wrote shims for npm, npx, pnpm, yarn in ${dir}.`)
    expect(filesIn(dir).filter(name => !name.startsWith('.')).sort()).toEqual(['npm', 'npx', 'pnpm', 'yarn'])
  })

  it('init prints functions that a shell accepts, which start resilient through its launcher', async () => {
    const env = isolatedEnv()
    const result = await runCli(['init', 'bash'], { env })
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toMatch(/^function pip \{ .* then \S+\/bin\/resilient pip "\$@"; else command pip "\$@"; fi; \}$/m)
    const check = await execa('bash', ['-c', `alias pip='echo an old alias'\n${result.stdout}\ntype pip | head -1`], { reject: false })
    expect(check.stdout).toBe('pip is a function')
    const fish = await runCli(['init', 'fish'], { env })
    expect(fish.stdout).toMatch(/shims are faster there \(resilient shim install\)/)
    expect((await runCli(['init', 'tcsh'], { env })).exitCode).toBe(64)
  })

  it('completion prints a script bash can load', async () => {
    const result = await runCli(['completion', 'bash'])
    const check = await execa('bash', ['-c', `${result.stdout}\ncomplete -p resilient`], { reject: false })
    expect(check.stdout).toBe('complete -F _resilient resilient')
  })
})

// The read-only fast path with the real tools: same bytes and status as the plain tool, and resilient never starts
// (strace lists every program the shim and the tool started).
const READ_ONLY_CALLS = [
  ['pip', '--version'], ['pip', 'list'], ['pip', 'freeze'], ['pip', '--isolated', 'list', '--format', 'json'], ['pip', 'show', 'no-such-package'],
  ['pip', 'config', 'get', 'global.index-url'], ['npm', '--version'], ['npm', 'ls'], ['npm', 'ls', '--json'], ['npm', 'config', 'get', 'registry'],
]

/** Runs `argv` under strace; returns its result and every program it started successfully (argv as strace prints it,
 * whole: -s 4096, since strace cuts strings at 32 characters and a checkout's path to bin/resilient.js is longer). */
async function traced(argv: string[], options: { cwd: string; env: Record<string, string> }) {
  const trace = join(mkdtempSync(join(tmpdir(), 'resilient-trace-')), 'execve')
  const result = await execa('strace', ['-f', '-qq', '-s', '4096', '-e', 'trace=execve', '-o', trace, ...argv], { ...options, extendEnv: false, reject: false, stdin: 'ignore' })
  const started = readFileSync(trace, 'utf8').split('\n').filter(line => /execve\(.*\) = 0$/.test(line))
  return { result, started }
}

describeNeeding([command('pip'), command('npm'), command('strace')], 'the read-only fast path of a shim', () => {
  it.each(READ_ONLY_CALLS)('%s %s: exactly the plain tool\'s output and exit code, and no resilient process', async (...argv: string[]) => {
    const { dir, env } = await installShims(['pip', 'npm'])
    const plainEnv = { ...env, PATH: env.PATH!.slice(dir.length + 1) }
    const cwd = mkdtempSync(join(tmpdir(), 'resilient-fast-'))
    const plain = await execa(argv[0]!, argv.slice(1), { cwd, env: plainEnv, extendEnv: false, reject: false, stdin: 'ignore' })
    const { result, started } = await traced(argv, { cwd, env })
    expect(started.some(line => line.includes(`"${join(dir, argv[0]!)}"`)), 'the shim ran').toBe(true)
    expect(started.filter(line => /resilient\.js|"shim", "run"/.test(line))).toEqual([])
    expect(result.stdout).toBe(plain.stdout)
    expect(result.stderr).toBe(plain.stderr)
    expect(result.exitCode).toBe(plain.exitCode)
    expect(filesIn(logsDirectory(plainEnv))).toEqual([])
  }, 60_000)

  it('a call that is not read-only does start resilient (the check above can see it)', async () => {
    const { env } = await installShims(['pip'])
    const { started } = await traced(['pip', 'uninstall', '-y', 'no-such-package'], { cwd: tmpdir(), env })
    expect(started.filter(line => /\.js", "shim", "run", "pip"/.test(line)), started.join('\n')).toHaveLength(1)
  }, 60_000)
})

describeNeeding([command('pip'), command('npm'), command('strace')], 'the read-only fast path of `resilient init bash`', () => {
  it.each([['pip', '--version'], ['npm', '--version'], ['npm', 'ls']])('%s %s runs the tool itself, with no resilient in between; an install goes through resilient', async (...argv: string[]) => {
    const env = isolatedEnv()
    const init = (await runCli(['init', 'bash'], { env })).stdout
    const cwd = mkdtempSync(join(tmpdir(), 'resilient-init-'))
    const plain = await execa(argv[0]!, argv.slice(1), { cwd, env, extendEnv: false, reject: false, stdin: 'ignore' })
    const { result, started } = await traced(['bash', '-c', `${init}\n${argv.join(' ')}`], { cwd, env })
    expect(result.stdout).toBe(plain.stdout)
    expect(result.exitCode).toBe(plain.exitCode)
    // The program each execve started (its first argument): never the launcher, never Node on resilient's code.
    const resilientStarts = (lines: string[]) => lines.filter(line => /execve\("[^"]*\/bin\/resilient"|"[^"]*dist\/cli\.cjs"/.test(line))
    expect(resilientStarts(started)).toEqual([])
    const install = await traced(['bash', '-c', `${init}\n${argv[0]} install --dry-run-of-resilient-never-runs 2>/dev/null; true`], { cwd, env })
    expect(resilientStarts(install.started).length).toBeGreaterThan(0)
  }, 60_000)
})

