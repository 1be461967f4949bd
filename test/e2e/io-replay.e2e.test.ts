import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildWheel, type BuiltWheel } from '../helpers/fake-pypi.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { filesIn, projectWithConfig, pypiServers } from '../helpers/e2e-setup.js'
import { LAUNCHER, peakRssMb, standIn } from '../helpers/process-helpers.js'

// Input that can be read only once (stdin from a pipe, `-r <(...)`) reaches the tool untouched, and a retry
// reads the same bytes again. Real pip (python3 -m pip) against PEP 503 servers on 127.0.0.1.

let wheels: BuiltWheel[]
beforeAll(() => {
  wheels = [buildWheel('demo-pkg', '1.0')]
})
const server = pypiServers()

interface Run { exitCode: number | undefined; stdout: string; stderr: string; dest: string; report: () => { attempts: { diagnosis: { category: string } | null }[] } }

/** `bash -c` the line, in a project using `config`, with `resilient` on PATH; `$DEST` is an empty directory. */
async function bash(line: string, config: unknown, extraEnv: Record<string, string> = {}): Promise<Run> {
  const bin = mkdtempSync(join(tmpdir(), 'resilient-bin-'))
  symlinkSync(LAUNCHER, join(bin, 'resilient'))
  const dest = mkdtempSync(join(tmpdir(), 'resilient-dl-'))
  const report = join(mkdtempSync(join(tmpdir(), 'resilient-report-')), 'report.json')
  const base = isolatedEnv({ DEST: dest, REPORT: report, ...extraEnv })
  const result = await execa('bash', ['-c', line], { cwd: projectWithConfig(config), env: { ...base, PATH: `${bin}:${base.PATH}` }, extendEnv: false, reject: false, timeout: 90_000, stdin: 'ignore' })
  return { exitCode: result.exitCode, stdout: String(result.stdout), stderr: String(result.stderr), dest, report: () => JSON.parse(readFileSync(report, 'utf8')) }
}

const DOWNLOAD = 'resilient --report "$REPORT" python3 -m pip download --no-deps -d "$DEST"'

describe('input read once reaches pip, and again on a retry', () => {
  it('`cat reqs | resilient pip download -r /dev/stdin` downloads what the requirements name', async () => {
    const index = await server({ wheels })
    const run = await bash(`printf 'demo-pkg\\n' | ${DOWNLOAD} -r /dev/stdin`, { pypi: { index: index.url } })
    expect(run.exitCode, run.stderr).toBe(0)
    expect(filesIn(run.dest)).toEqual(['demo_pkg-1.0-py3-none-any.whl'])
  })

  it.each([
    ['process substitution, -r <(...)', `${DOWNLOAD} -r <(printf 'demo-pkg\\n')`],
    ['a pipe, -r /dev/stdin', `printf 'demo-pkg\\n' | ${DOWNLOAD} -r /dev/stdin`],
  ])('%s: a dead index, then the mirror reads the same requirements', async (_, line) => {
    const primary = await server({ wheels, fault: { kind: 'status', status: 503 } })
    const mirror = await server({ wheels })
    const run = await bash(line, { pypi: { index: primary.url, mirrors: [mirror.url] } })
    expect(run.exitCode, run.stderr).toBe(0)
    expect(filesIn(run.dest)).toEqual(['demo_pkg-1.0-py3-none-any.whl'])
    // The dead index is given up for the mirror, which then reads the whole requirements again.
    const categories = run.report().attempts.map(attempt => attempt.diagnosis?.category ?? null)
    expect(categories[0]).toBe('server_error')
    expect(categories.at(-1)).toBeNull()
  })

  it('past the replay bound, no retry is made and resilient says why in one line; the exit is pip\'s', async () => {
    const primary = await server({ wheels, fault: { kind: 'status', status: 503 } })
    const mirror = await server({ wheels })
    const run = await bash(`printf '# a comment longer than the bound\\ndemo-pkg\\n' | ${DOWNLOAD} -r /dev/stdin`, { pypi: { index: primary.url, mirrors: [mirror.url] } }, { RESILIENT_REPLAY_INPUT_MEGABYTES: '0.00001' })
    expect(run.exitCode).toBe(1)
    expect(run.report().attempts).toHaveLength(1)
    expect(run.stderr).toMatch(/no retry: the tool read more than 10 B of its standard input, more than resilient keeps to give it again \(setting replayInputMegabytes\)/)
    expect(filesIn(run.dest)).toEqual([])
  })

  it('a streamed requirements file that chooses its own index is not retried on a mirror', async () => {
    const primary = await server({ wheels, fault: { kind: 'status', status: 503 } })
    const mirror = await server({ wheels })
    const run = await bash(`${DOWNLOAD} -r <(printf -- '--index-url ${primary.url}\\ndemo-pkg\\n')`, { pypi: { mirrors: [mirror.url] } })
    expect(run.exitCode).toBe(1)
    expect(run.report().attempts).toHaveLength(1)
    expect(run.stderr).toMatch(/choose their own index \(--index-url\)/)
  })

  it('pip --log /dev/stderr writes its log through resilient without an error', async () => {
    const index = await server({ wheels })
    const run = await bash(`${DOWNLOAD} --log /dev/stderr demo-pkg 2>&1 | cat`, { pypi: { index: index.url } })
    expect(run.exitCode).toBe(0)
    expect(run.stdout).toContain('Saved ')
    expect(run.stdout).not.toMatch(/Logging error|OSError|No such device/)
  })

  it('`yes | resilient ...` with a tool that never reads stdin does not grow', async () => {
    const tool = standIn('pip', 'sleep 3\necho done\n')
    const child = spawn('sh', ['-c', `yes | "$0" -q --no-mirrors pip install x`, LAUNCHER], { env: tool.env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    child.stdout.on('data', chunk => { stdout += chunk })
    child.stderr.resume()
    let peak = 0
    const sampler = setInterval(() => {
      const resilient = Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(' ').at(-1) || 0)
      if (resilient) peak = Math.max(peak, peakRssMb(resilient))
    }, 200)
    const code = await new Promise(resolve => child.on('close', resolve))
    clearInterval(sampler)
    expect(code).toBe(0)
    expect(stdout).toBe('done\n')
    expect(peak).toBeGreaterThan(0)
    expect(peak).toBeLessThan(150)
  }, 30_000)
})
