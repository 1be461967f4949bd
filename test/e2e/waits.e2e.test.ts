import { execa } from 'execa'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildWheel } from '../helpers/fake-pypi.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { CLI, runCli } from '../helpers/run-cli.js'
import { projectWithConfig, pypiServers } from './helpers.js'
import { command, itNeeding } from '../helpers/requirements.js'

// Visible waits (issue 15): the wait before a retry counts down in a real terminal (tmux), and is cleared before the
// next attempt; piped, it is one plain line with no spinner frame.
const SPINNER_FRAMES = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/
const COUNTDOWN = /waiting (\d) s before trying 127\.0\.0\.1:\d+/
const server = pypiServers()

/** A primary that asks pip to come back in 4 s twice (the page, then resilient's probe), then serves. */
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
    writeFileSync(script, `${exports}\ncd ${quote(cwd)}\nnode ${quote(CLI)} python3 -m pip download --no-deps -d ${quote(dest)} demo-pkg\necho "EXIT:$?"\nsleep 120\n`)
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
    const result = await runCli(['python3', '-m', 'pip', 'download', '--no-deps', '-d', dest, 'demo-pkg'], { cwd, env: isolatedEnv() })
    expect(result.exitCode, result.all).toBe(0)
    const lines = result.stderr.split('\n').filter(line => COUNTDOWN.test(line))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^… 127\.0\.0\.1:\d+ asked to come back later: waiting once; waiting 4 s before trying 127\.0\.0\.1:\d+$/)
    expect(result.stderr).not.toMatch(SPINNER_FRAMES)
    expect(result.stderr).not.toContain('\r')
    expect(result.stderr).not.toContain('\x1b[?25l')
  }, 120_000)
})
