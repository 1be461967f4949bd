import { execa } from 'execa'
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildWheel } from '../helpers/fake-pypi.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { CLI, runCli } from '../helpers/run-cli.js'
import { projectWithConfig, pypiServers } from '../helpers/e2e-setup.js'
import { command, itNeeding } from '../helpers/requirements.js'
import { Tmux } from '../helpers/tmux.js'

// Visible waits: the wait before a retry counts down in a real terminal (tmux), and is cleared before the
// next attempt; piped, it is one plain line with no spinner frame.
const SPINNER_FRAMES = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/
const COUNTDOWN = /waiting (\d) s before trying 127\.0\.0\.1:\d+/
const server = pypiServers()

/**
 * A primary that asks pip to come back in 4 s twice (the page, then resilient's probe), then serves. pip's own retries
 * are set to none (as a person may): pip would otherwise wait for the Retry-After itself, and the wait be pip's.
 */
async function slowToAnswer() {
  const primary = await server({ wheels: [buildWheel('demo-pkg', '1.0')], fault: ({ path, count }) => path === '/simple/demo-pkg/' && count <= 2 ? { kind: 'status', status: 429, retryAfter: 4 } : { kind: 'ok' } })
  return { primary, cwd: projectWithConfig({ pypi: { index: primary.url, mirrors: [] } }) }
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`
const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))

describe('the wait before a retry', () => {
  itNeeding(command('tmux'), 'counts down in a real terminal, and is gone when the next attempt starts', async () => {
    const { cwd } = await slowToAnswer()
    const env = isolatedEnv()
    const dest = mkdtempSync(join(tmpdir(), 'resilient-dl-'))
    const script = join(mkdtempSync(join(tmpdir(), 'resilient-tmux-')), 'run.sh')
    // The pane's TERM is tmux's own, as in any terminal; the runner's (TERM=dumb in some CI) would turn ora off.
    const exports = Object.entries(env).filter(([name]) => name !== 'TERM').map(([name, value]) => `export ${name}=${quote(value)}`).join('\n')
    writeFileSync(script, `${exports}\ncd ${quote(cwd)}\nnode ${quote(CLI)} python3 -m pip download --no-deps --retries 0 -d ${quote(dest)} demo-pkg\necho "EXIT:$?"\nsleep 120\n`)
    const socket = `resilient-waits-${process.pid}-${Date.now()}`
    const tmux = (...args: string[]) => execa('tmux', ['-L', socket, '-f', '/dev/null', ...args], { reject: false, env: { ...process.env, TMUX: '' } })
    await tmux('new-session', '-d', '-s', 'w', '-x', '120', '-y', '50', `sh ${quote(script)}`)
    const screens: string[] = []
    try {
      for (const started = Date.now(); Date.now() - started < 90_000; await sleep(150)) {
        const screen = (await tmux('capture-pane', '-p', '-t', 'w')).stdout
        screens.push(screen)
        if (/EXIT:\d+/.test(screen)) break
      }
    } finally {
      await tmux('kill-server')
    }
    const last = screens.at(-1)!
    expect(last, last).toMatch(/EXIT:0/)
    const counting = screens.filter(screen => COUNTDOWN.test(screen))
    expect(counting.length, screens.join('\n-----\n')).toBeGreaterThan(0)
    // It counts down (the figure changes), with a spinner frame in front of it.
    expect(new Set(counting.map(screen => COUNTDOWN.exec(screen)![1])).size).toBeGreaterThanOrEqual(2)
    expect(counting.some(screen => screen.split('\n').some(line => COUNTDOWN.test(line) && SPINNER_FRAMES.test(line)))).toBe(true)
    // Cleared: the finished screen has the attempts' lines and no count-down left over.
    expect(last).toMatch(/attempt 2 of \d on 127\.0\.0\.1:\d+/)
    expect(last).not.toMatch(COUNTDOWN)
  }, 120_000)

  it('piped (or in CI), is one plain line with no spinner frame', async () => {
    const { cwd } = await slowToAnswer()
    const dest = mkdtempSync(join(tmpdir(), 'resilient-dl-'))
    const result = await runCli(['python3', '-m', 'pip', 'download', '--no-deps', '--retries', '0', '-d', dest, 'demo-pkg'], { cwd, env: isolatedEnv() })
    expect(result.exitCode, result.all).toBe(0)
    const lines = result.stderr.split('\n').filter(line => COUNTDOWN.test(line))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^… 127\.0\.0\.1:\d+ asked to come back later: waiting once; waiting 4 s before trying 127\.0\.0\.1:\d+$/)
    expect(result.stderr).not.toMatch(SPINNER_FRAMES)
    expect(result.stderr).not.toContain('\r')
    expect(result.stderr).not.toContain('\x1b[?25l')
  }, 120_000)
})

/** A stand-in pip that goes silent after a whole line, then after a line it has not finished (a prompt, a bar). */
function silentPip(): string {
  const bin = mkdtempSync(join(tmpdir(), 'resilient-quiet-'))
  writeFileSync(join(bin, 'pip'), "#!/bin/sh\necho collecting\nsleep 3\nprintf 'partial, no newline'\nsleep 3\necho ' end'\necho finished\n")
  chmodSync(join(bin, 'pip'), 0o755)
  return bin
}

describe('a tool that prints nothing for a while', () => {
  itNeeding(command('tmux'), 'shows a spinner in a terminal after a second, never over a line the tool has not finished, and erases it before the tool\'s output', async () => {
    const index = await server({ wheels: [] })
    const cwd = projectWithConfig({ pypi: { index: index.url, mirrors: [] } })
    const env = isolatedEnv({ PATH: `${silentPip()}:${process.env.PATH}` })
    const tmux = new Tmux(env, { columns: 120, rows: 40 })
    const screens: string[] = []
    try {
      tmux.type(`cd ${quote(cwd)} && node ${quote(CLI)} pip install demo-pkg; echo "EXIT:$?"`)
      for (const started = Date.now(); Date.now() - started < 60_000; await sleep(150)) {
        screens.push(tmux.screen())
        if (/EXIT:\d+/.test(screens.at(-1)!)) break
      }
    } finally {
      tmux.close()
    }
    const last = screens.at(-1)!
    expect(last, last).toMatch(/EXIT:0/)
    const QUIET = /no output from pip for \d s \(127\.0\.0\.1:\d+\)/
    const spinning = screens.filter(screen => screen.split('\n').some(line => QUIET.test(line) && SPINNER_FRAMES.test(line)))
    expect(spinning.length, screens.join('\n-----\n')).toBeGreaterThan(0)
    // Only while the cursor is at the start of a line: the unfinished line is never erased or written over.
    expect(screens.filter(screen => screen.includes('partial, no newline') && QUIET.test(screen))).toEqual([])
    expect(last).toContain('collecting\npartial, no newline end\nfinished\n')
    expect(last).not.toMatch(QUIET)
  }, 90_000)

  it('piped, shows nothing of the kind', async () => {
    const index = await server({ wheels: [] })
    const cwd = projectWithConfig({ pypi: { index: index.url, mirrors: [] } })
    const result = await runCli(['pip', 'install', 'demo-pkg'], { cwd, env: isolatedEnv({ PATH: `${silentPip()}:${process.env.PATH}` }) })
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stdout).toBe('collecting\npartial, no newline end\nfinished')
    expect(result.stderr).not.toMatch(/no output from/)
    expect(result.stderr).not.toMatch(SPINNER_FRAMES)
  }, 60_000)
})
