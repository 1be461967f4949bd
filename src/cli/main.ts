// Bin entry: kept tiny so `resilient --version` costs little more than starting Node (npm run bench, figure c).
declare const __VERSION__: string

// `resilient pip freeze | head` closes our stdout early: end quietly like the tool would, not with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error
  })
}

const argv = process.argv.slice(2)
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${__VERSION__}\n`)
} else {
  const { runCli } = await import('./program.js')
  process.exitCode = await runCli(argv)
}
