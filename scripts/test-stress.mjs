#!/usr/bin/env node
// `npm run test:stress`: the README's test command (`npm test`) with two busy loops running beside it, the way a
// shared 2-core machine or a busy CI runner treats it. A test that passes only on a quiet machine fails here.
//
//   npm run test:stress                         npm test once, under two busy loops
//   npm run test:stress -- --runs 3             three times in a row, stopping at the first failure
//   npm run test:stress -- npx vitest run test/unit/exec     another command under the same load
//
// The busy loops are `sh -c 'while :; do :; done'` (as `for i in 1 2; do (while :; do :; done) & done` in a shell),
// started before the command and killed after it, whatever happens. Each run prints its time and the load average.
import { spawn } from 'node:child_process'
import { loadavg } from 'node:os'

const argv = process.argv.slice(2)
let runs = 1
const runsAt = argv.indexOf('--runs')
if (runsAt !== -1) {
  runs = Number(argv[runsAt + 1])
  argv.splice(runsAt, 2)
  if (!Number.isInteger(runs) || runs < 1) {
    console.error('test:stress: --runs takes a whole number of runs, 1 or more (e.g. --runs 3).')
    process.exit(2)
  }
}
const [command, ...args] = argv.length > 0 ? argv : ['npm', 'test']

const loops = [1, 2].map(() => spawn('sh', ['-c', 'while :; do :; done'], { stdio: 'ignore' }))
const stopLoops = () => { for (const loop of loops) if (loop.exitCode === null && loop.signalCode === null) loop.kill('SIGKILL') }
process.on('exit', stopLoops)
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => { stopLoops(); process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1)) })

const load = () => loadavg().map(value => value.toFixed(2)).join(', ')
const minutes = ms => `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`

function runOnce() {
  return new Promise(resolve => {
    const child = spawn(command, args, { stdio: 'inherit' })
    child.on('error', error => { console.error(`test:stress: could not start ${command}: ${error.message}`); resolve(127) })
    child.on('exit', (code, signal) => resolve(code ?? 128 + (signal === 'SIGKILL' ? 9 : 15)))
  })
}

const summary = []
let status = 0
for (let run = 1; run <= runs && status === 0; run++) {
  console.log(`\n== test:stress run ${run} of ${runs}: ${[command, ...args].join(' ')} beside two busy loops (load average ${load()})`)
  const started = Date.now()
  status = await runOnce()
  const line = `run ${run}: ${status === 0 ? 'passed' : `FAILED (exit ${status})`} in ${minutes(Date.now() - started)}, load average at the end ${load()}`
  summary.push(line)
  console.log(`== test:stress ${line}`)
}
stopLoops()
console.log(`\n== test:stress: ${summary.join('; ')}`)
process.exit(status)
