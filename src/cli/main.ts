// Started by the bin entry (cli.ts): kept tiny so `resilient --version` costs little more than starting Node (npm run
// bench, figure c).
import { adoptLaunchContext } from '../run/launch.js'
import { useBlockingStdio } from './blocking-stdio.js'
import { exitBySignal, installSignalRouting } from '../run/signal-router.js'

declare const __VERSION__: string

// What the launcher (bin/resilient) read before Node started; removed so that no child sees it (docs/process.md).
const launch = adoptLaunchContext(process.env)
installSignalRouting(launch.ignoredSignals)

// Before anything writes: a pipe or socket as stdout or stderr is written with blocking writes (blocking-stdio.ts).
useBlockingStdio()

// `resilient pip freeze | head` closes our stdout early: end quietly like the tool would, not with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error
  })
}

// A working directory deleted under the shell: the shell still runs commands there, Node's process.cwd() throws.
// Answer with the path the shell knows, where nothing is found any more, so the tool runs as it would (docs/process.md).
try {
  process.cwd()
} catch {
  const gone = process.env.PWD || '/nonexistent'
  process.cwd = () => gone
}

const argv = process.argv.slice(2)
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${__VERSION__}\n`)
} else {
  void import('./run-cli.js').then(async ({ runCli }) => {
    const status = await runCli(argv)
    if (status.signal) exitBySignal(status.signal, status.code)
    else process.exitCode = status.code
  })
}
