import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { describe, expect, it } from 'vitest'
import { command, describeNeeding } from '../helpers/requirements.js'
import { bashBeside, LAUNCHER, peakRssMb, standIn, type StandIn } from '../helpers/process-helpers.js'

// What comes out of the tool is what it wrote, as it would be without resilient. `pip list` is a local verb
// (the tool writes to resilient's own descriptors), `pip install` a network verb (resilient reads the output for a
// diagnosis). Each behaviour is compared with the plain tool run the same way.

// Prints 40 MB; exits 1 on a broken pipe the way pip does (Python ignores SIGPIPE and raises BrokenPipeError).
const PYTHON_EPIPE = `#!/usr/bin/env python3
import os, sys
try:
    for i in range(400000):
        sys.stdout.write("package-%06d 1.0.0 %s\\n" % (i, "x" * 76))
    sys.stdout.flush()
except BrokenPipeError:
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(1)
`

describe('what comes out of the tool', () => {
  it.each([
    ['a tool that exits 1 on EPIPE', PYTHON_EPIPE, 1],
    ['a tool killed by SIGPIPE', 'exec yes "package 1.0.0"\n', 141],
  ])('into `| head -1`: %s ends as the plain tool does, for a local and a network verb', async (_, script, status) => {
    const tool = standIn('pip', script)
    const plain = await bashBeside(tool, 'pip list | head -1; echo "status=${PIPESTATUS[0]}"')
    expect(plain.stdout.split('\n').at(-1)).toBe(`status=${status}`)
    for (const verb of ['list', 'install x']) {
      const wrapped = await bashBeside(tool, `resilient --no-mirrors pip ${verb} | head -1; echo "status=\${PIPESTATUS[0]}"`)
      expect(wrapped.stdout, wrapped.stderr).toBe(plain.stdout)
      expect(wrapped.stderr, verb).not.toMatch(/attempt 1 failed|gave up|retry/i)
    }
  }, 120_000)

  it('through a shim, `pip list | head -1` exits as pip itself does (broken pipe included)', async () => {
    const tool = standIn('pip', PYTHON_EPIPE)
    const shims = mkdtempSync(join(tmpdir(), 'resilient-shims-'))
    const installed = await bashBeside(tool, `resilient shim install --dir ${shims} pip`)
    expect(installed.exitCode, installed.stderr).toBe(0)
    const plain = await bashBeside(tool, 'pip list | head -1; echo "status=${PIPESTATUS[0]}"')
    const shimmed = await bashBeside(tool, `PATH=${shims}:$PATH; pip list | head -1; echo "status=\${PIPESTATUS[0]}"`)
    expect(shimmed.stdout, shimmed.stderr).toBe(plain.stdout)
    expect(plain.stdout).toMatch(/status=1$/)
  }, 60_000)

  it('the tool can open /dev/stdout, /dev/stderr and /proc/self/fd/1, and gets the caller\'s extra descriptors', async () => {
    const tool = standIn('pip', 'echo to-dev-stdout >> /dev/stdout && echo to-dev-stderr >> /dev/stderr && echo to-proc-fd >> /proc/self/fd/1 && echo to-fd3 >&3\n')
    const dir = mkdtempSync(join(tmpdir(), 'resilient-fd3-'))
    // Into a file and a pipe, as a shell gives them (the test's own descriptors are sockets).
    const plain = await bashBeside(tool, `pip list 3>${dir}/three > ${dir}/out 2> >(cat > ${dir}/err); echo "status=$?"`)
    expect(plain.stdout).toBe('status=0')
    for (const verb of ['list', 'install x']) {
      const wrapped = await bashBeside(tool, `resilient --no-mirrors pip ${verb} 3>${dir}/three > ${dir}/out 2> >(cat > ${dir}/err); echo "status=$?"; wait`)
      expect(wrapped.stdout, readFileSync(join(dir, 'err'), 'utf8')).toBe('status=0')
      expect(readFileSync(join(dir, 'out'), 'utf8')).toBe('to-dev-stdout\nto-proc-fd\n')
      expect(readFileSync(join(dir, 'err'), 'utf8')).toContain('to-dev-stderr\n')
      expect(readFileSync(join(dir, 'three'), 'utf8')).toBe('to-fd3\n')
    }
  }, 60_000)

  it('never masks or rewrites the tool\'s own text (a key block without its end, words next to secret-looking names)', async () => {
    const tool = standIn('pip', `echo "-----BEGIN PRIVATE KEY-----" >&2
echo "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC" >&2
echo "ERROR: the real error after the key line" >&2
echo "PASSWORD_MIN_LENGTH=12 AUTH_TOKEN_TTL=3600 auth type: kerberos" >&2
echo "stdout line"
exit 1
`, { AUTH_TYPE: 'kerberos', MY_API_TOKEN: 'kerberos' })
    const dir = mkdtempSync(join(tmpdir(), 'resilient-text-'))
    await bashBeside(tool, `pip install x > ${dir}/plain-out 2> ${dir}/plain-err`)
    await bashBeside(tool, `resilient -q --no-mirrors --max-attempts 1 pip install x > ${dir}/out 2> ${dir}/err`)
    expect(readFileSync(join(dir, 'out'), 'utf8')).toBe(readFileSync(join(dir, 'plain-out'), 'utf8'))
    const plainErr = readFileSync(join(dir, 'plain-err'), 'utf8')
    expect(readFileSync(join(dir, 'err'), 'utf8').startsWith(plainErr)).toBe(true)
    expect(plainErr).toContain('auth type: kerberos')
  }, 60_000)

  it('keeps the order of stdout and stderr lines written to one file (`>log 2>&1`)', async () => {
    const tool = standIn('pip', 'i=0; while [ $i -lt 400 ]; do i=$((i+1)); echo "out $i"; echo "err $i" >&2; done\n')
    const dir = mkdtempSync(join(tmpdir(), 'resilient-order-'))
    await bashBeside(tool, `pip install x > ${dir}/plain 2>&1`)
    await bashBeside(tool, `resilient -q --no-mirrors pip install x > ${dir}/wrapped 2>&1`)
    expect(readFileSync(join(dir, 'wrapped'), 'utf8')).toBe(readFileSync(join(dir, 'plain'), 'utf8'))
  }, 60_000)

  it('shows a prompt without a newline at once, and passes the answer', async () => {
    const tool = standIn('pip', 'printf "Proceed (Y/n)? " >&2\nread -r answer\necho "answer: $answer"\n')
    const child = spawn(LAUNCHER, ['-q', '--no-mirrors', 'pip', 'install', 'x'], { env: tool.env, stdio: ['pipe', 'pipe', 'pipe'] })
    let stderr = ''
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no prompt; stderr: ${stderr}`)), 20_000)
      child.stderr.on('data', chunk => {
        stderr += chunk
        if (stderr.includes('Proceed (Y/n)? ')) {
          clearTimeout(timer)
          resolve()
        }
      })
    })
    child.stdin.end('y\n')
    let stdout = ''
    child.stdout.on('data', chunk => { stdout += chunk })
    expect(await new Promise(resolve => child.on('close', resolve))).toBe(0)
    expect(stdout).toBe('answer: y\n')
  }, 30_000)

  it('lets a tool open /dev/stdin by path after its piped input has ended, as with a shell\'s pipe', async () => {
    const tool = standIn('pip', 'sleep 0.5\ncat /dev/stdin\necho done\n')
    const wrapped = await bashBeside(tool, `printf 'hello\\n' | resilient -q --no-mirrors pip install x; echo "status=$?"`)
    expect(wrapped.stdout, wrapped.stderr).toBe('hello\ndone\nstatus=0')
  }, 60_000)

  it('passes on what a helper the tool left running writes after the tool exits', async () => {
    const tool = standIn('pip', '(sleep 3; echo late-from-helper) &\necho tool-done\n')
    const wrapped = await bashBeside(tool, 'resilient -q --no-mirrors pip install x | cat')
    expect(wrapped.stdout).toBe('tool-done\nlate-from-helper')
  }, 60_000)

  it('holds the tool back rather than itself growing when stderr goes to a slow reader, at the plain tool\'s pace', async () => {
    const tool = standIn('pip', 'yes "Collecting some-package (from -r requirements.txt (line 1))" | head -c 300000000 >&2\necho done\n')
    const plain = await readSlowly(tool, [join(tool.dir, 'pip'), 'install', 'x'])
    const wrapped = await readSlowly(tool, [LAUNCHER, '-q', '--no-mirrors', 'pip', 'install', 'x'])
    expect(wrapped.code).toBe(0)
    expect(wrapped.received).toBe(plain.received)
    expect(wrapped.peakMb).toBeGreaterThan(0)
    expect(wrapped.peakMb).toBeLessThan(200)
    // A wide margin: the reader sets the pace of both; on a busy machine only a runaway differs by more.
    expect(wrapped.ms).toBeLessThan(plain.ms * 3 + 5000)
  }, 180_000)
})

/** Runs argv with its stderr read slowly (one chunk per millisecond at most); its peak memory is sampled meanwhile. */
async function readSlowly(tool: StandIn, argv: string[]): Promise<{ code: unknown; received: number; peakMb: number; ms: number }> {
  const started = Date.now()
  const child = spawn(argv[0]!, argv.slice(1), { env: tool.env, stdio: ['ignore', 'pipe', 'pipe'] })
  let peakMb = 0
  const sampler = setInterval(() => { peakMb = Math.max(peakMb, peakRssMb(child.pid!)) }, 100)
  let received = 0
  child.stderr.on('data', (chunk: Buffer) => {
    received += chunk.length
    child.stderr.pause()
    setTimeout(() => child.stderr.resume(), 1)
  })
  child.stdout.resume()
  const code = await new Promise(resolve => child.on('close', resolve))
  clearInterval(sampler)
  return { code, received, peakMb, ms: Date.now() - started }
}

describeNeeding(command('script'), 'in a pseudo-terminal', () => {
  it('loses no byte of 20 KB followed by an error line, in 20 runs, and diagnoses from the whole tail', async () => {
    const tool = standIn('pip', `head -c 20000 /dev/zero | tr '\\0' x\necho\necho "pip._vendor.urllib3.exceptions.ReadTimeoutError: HTTPSConnectionPool(host='pypi.org', port=443): Read timed out." >&2\nexit 1\n`)
    const dir = mkdtempSync(join(tmpdir(), 'resilient-pty-'))
    for (let run = 0; run < 20; run++) {
      const report = join(dir, `report-${run}.json`)
      // script(1) gives resilient a terminal for stdin, stdout and stderr, as a person's shell would.
      const result = await execa('script', ['-qfec', `${LAUNCHER} -q --no-mirrors --max-attempts 1 --report ${report} pip install x`, '/dev/null'], { env: tool.env, extendEnv: false, reject: false, stdin: 'ignore', timeout: 30_000 })
      const screen = String(result.stdout)
      // What the screen had instead, should a byte go missing: how many x's, and what came around them (seen once in CI
      // under load at be4775e, not reproduced in 60 runs under two busy loops since).
      const xs = screen.match(/x+/g)?.map(run => run.length) ?? []
      expect(screen.includes(`${'x'.repeat(20000)}\r\n`), `run ${run}: runs of x ${JSON.stringify(xs)}, exit ${result.exitCode}, screen without them: ${JSON.stringify(screen.replace(/x{20,}/g, '<x…>'))}`).toBe(true)
      expect(screen, `run ${run}`).toContain('Read timed out.\r\n')
      expect(JSON.parse(readFileSync(report, 'utf8')).attempts[0].diagnosis.category).toBe('timeout')
    }
  }, 240_000)
})
