// Figures for the tool's streams and resilient's start-up (docs/process.md), as ratios to the plain tool:
// (f) stdout and (g) stderr throughput: a tool printing N MB into `| cat`, plain and through resilient (a network verb,
//     so resilient reads every byte for its diagnosis); target: resilient's time <= 1.5 x the plain tool's.
// (h) peak RSS of resilient and the tool together against the tool alone, while the output above passes.
// (i) the sh launcher (bin/resilient) against starting Node's entry directly.
import { spawn } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const LAUNCHER = fileURLToPath(new URL('../bin/resilient', import.meta.url))
const ENTRY = fileURLToPath(new URL('../dist/cli.cjs', import.meta.url))
const median = values => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

const peakKb = pid => {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0)
  } catch {
    return 0
  }
}
const childrenOf = pid => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)
  } catch {
    return []
  }
}

/** Runs `sh -c line`; returns its time and the peak RSS of the process named `name` and of its children. */
function measure(line, env, name) {
  return new Promise(resolve => {
    const started = performance.now()
    const shell = spawn('sh', ['-c', line], { env, stdio: 'ignore' })
    const peaks = new Map()
    const poll = setInterval(() => {
      const queue = [shell.pid]
      for (let i = 0; i < queue.length; i++) {
        const pid = queue[i]
        queue.push(...childrenOf(pid))
        let command = ''
        try {
          command = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
        } catch {}
        if (pid !== shell.pid && !command.startsWith('cat')) peaks.set(pid, Math.max(peaks.get(pid) ?? 0, peakKb(pid)))
      }
    }, 20)
    shell.on('close', () => {
      clearInterval(poll)
      const totalMb = [...peaks.values()].reduce((a, b) => a + b, 0) / 1024
      resolve({ ms: performance.now() - started, peakMb: totalMb, name })
    })
  })
}

/** A stand-in pip that prints `bytes` of text on `stream` (Python, as pip is). */
function standIn(bytes, stream) {
  const bin = mkdtempSync(join(tmpdir(), 'bench-streams-'))
  writeFileSync(join(bin, 'pip'), `#!/usr/bin/env python3
import sys
out = sys.${stream}.buffer
line = b"Collecting some-package==1.0.0 (from -r requirements.txt (line 12))" + b"." * 57 + b"\\n"
for _ in range(${bytes} // len(line)):
    out.write(line)
`)
  chmodSync(join(bin, 'pip'), 0o755)
  return bin
}

export async function figureStreams(env, quick, log) {
  const bytes = quick ? 256 * 2 ** 20 : 1024 * 2 ** 20
  const runs = quick ? 1 : 3
  const results = {}
  for (const stream of ['stdout', 'stderr']) {
    const bin = standIn(bytes, stream)
    const withTool = { ...env, PATH: `${bin}:${env.PATH}` }
    const redirect = stream === 'stdout' ? '2>/dev/null' : '2>&1 >/dev/null'
    log(`(${stream === 'stdout' ? 'f' : 'g'}) ${bytes / 2 ** 20} MB on ${stream} into | cat, ${runs} run(s) each, interleaved ...`)
    const plain = [], wrapped = [], plainRss = [], wrappedRss = []
    for (let i = 0; i < runs; i++) {
      const p = await measure(`pip download x ${redirect} | cat > /dev/null`, withTool)
      const w = await measure(`"${LAUNCHER}" -q --no-mirrors pip download x ${redirect} | cat > /dev/null`, withTool)
      plain.push(p.ms), wrapped.push(w.ms), plainRss.push(p.peakMb), wrappedRss.push(w.peakMb)
    }
    results[stream] = { megabytes: bytes / 2 ** 20, plainMs: median(plain), resilientMs: median(wrapped), ratio: median(wrapped) / median(plain), target: 1.5, plainPeakRssMb: median(plainRss), resilientAndToolPeakRssMb: median(wrappedRss), rssRatio: median(wrappedRss) / median(plainRss) }
  }
  return results
}

export async function figureLauncher(env, quick, log) {
  const runs = quick ? 10 : 30
  log(`(i) launcher, ${runs} runs each, interleaved ...`)
  const direct = [], launched = []
  for (let i = 0; i < runs; i++) {
    direct.push((await measure(`node "${ENTRY}" --version > /dev/null`, env)).ms)
    launched.push((await measure(`"${LAUNCHER}" --version > /dev/null`, env)).ms)
  }
  return { nodeEntryMedianMs: median(direct), launcherMedianMs: median(launched), extraMs: median(launched) - median(direct) }
}

/** The printed lines of (f)-(i). */
export function formatStreams(results, f) {
  const lines = []
  for (const [letter, stream] of [['f', 'stdout'], ['g', 'stderr']]) {
    const r = results.streams[stream]
    lines.push(`(${letter}) ${r.megabytes} MB on ${stream} into | cat: resilient ${f(r.resilientMs)} ms vs the tool ${f(r.plainMs)} ms; ratio ${f(r.ratio)} (target <= 1.50)`)
  }
  for (const stream of ['stdout', 'stderr']) {
    const r = results.streams[stream]
    lines.push(`(h) peak RSS while ${stream} passes: resilient + tool ${f(r.resilientAndToolPeakRssMb)} MB vs the tool alone ${f(r.plainPeakRssMb)} MB; ratio ${f(r.rssRatio)}`)
  }
  lines.push(`(i) launcher: bin/resilient --version ${f(results.launcher.launcherMedianMs)} ms vs node dist/cli.cjs --version ${f(results.launcher.nodeEntryMedianMs)} ms median; ${f(results.launcher.extraMs)} ms more`)
  return lines.join('\n')
}

/** The table for docs/benchmarks.md (`npm run bench -- --write`): figures (f) to (i). */
export function streamsTable({ streams, launcher }) {
  const seconds = value => `${(value / 1000).toFixed(1)} s`
  const mb = value => `${Math.round(value)} MB`
  const row = (...cells) => `| ${cells.join(' | ')} |`
  const { stdout, stderr } = streams
  return [
    row('figure', 'resilient', 'plain tool', 'ratio', 'target'),
    row('---', '---', '---', '---', '---'),
    row(`(f) ${stdout.megabytes / 1024} GB on stdout into \`\\| cat\`, median of 3`, seconds(stdout.resilientMs), seconds(stdout.plainMs), stdout.ratio.toFixed(2), `≤ 1.5${stdout.ratio > 1.5 ? ' — **missed**' : ''}`),
    row(`(g) ${stderr.megabytes / 1024} GB on stderr into \`\\| cat\`, median of 3`, seconds(stderr.resilientMs), seconds(stderr.plainMs), stderr.ratio.toFixed(2), `≤ 1.5${stderr.ratio > 1.5 ? ' — **missed**' : ''}`),
    row('(h) peak RSS while (f) runs: resilient and the tool / the tool alone', mb(stdout.resilientAndToolPeakRssMb), mb(stdout.plainPeakRssMb), stdout.rssRatio.toFixed(2), '—'),
    row('(h) peak RSS while (g) runs', mb(stderr.resilientAndToolPeakRssMb), mb(stderr.plainPeakRssMb), stderr.rssRatio.toFixed(2), '—'),
    row('(i) `bin/resilient --version` vs `node dist/cli.cjs --version`, median of 30', `${Math.round(launcher.launcherMedianMs)} ms`, `${Math.round(launcher.nodeEntryMedianMs)} ms`, `${launcher.extraMs >= 0 ? '+' : ''}${Math.round(launcher.extraMs)} ms`, '—'),
  ].join('\n')
}
