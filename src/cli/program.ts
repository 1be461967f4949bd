import { Command, CommanderError, InvalidArgumentError, Option } from 'commander'
import { ResilientError, EXIT } from '../errors.js'
import { redact } from '../redact.js'
import type { GlobalOptions } from './options.js'

declare const __VERSION__: string

function positiveInteger(value: string): number {
  const number = Number(value)
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('expected a whole number of at least 1.')
  return number
}

const EXAMPLES = `
Examples:
  $ resilient pip install torch                 run pip; on a network failure, diagnose, switch mirror, retry
  $ resilient python3 -m pip install -r requirements.txt
  $ resilient --dry-run pip install torch       print every planned attempt, run nothing
  $ resilient --mirror aliyun pip download numpy
  $ resilient --report run.json pip install flask
  $ resilient why build.log                     explain a saved failure log
  $ resilient demo                              see a recovery against local servers (no network needed)

Exit codes: the tool's own code when it fails or resilient gives up; 64 usage error; 78 config error;
127 tool not found; 130/143 interrupted; 70 internal error. See docs/exit-codes.md.`

export function buildProgram(): Command {
  const program = new Command('resilient')
    .description('Run a package manager; when it fails on the network, find out why, switch to a mirror and retry.')
    .usage('[options] <tool> [args...]')
    .version(__VERSION__, '-V, --version')
    .argument('[tool]', 'pip, pip3, python3 -m pip, ...')
    .argument('[args...]', "the tool's own arguments, passed through untouched")
    .option('-n, --dry-run', 'print the command of every planned attempt, one per line, and run nothing')
    .option('--report <file>', 'write a JSON report of the attempts (secrets redacted)')
    .option('-q, --quiet', "print only the final diagnosis when giving up (the tool's own output still shows)")
    .option('-v, --verbose', 'show evidence lines, rules and decisions')
    .option('--debug', 'show internal errors in full')
    .option('-m, --mirror <name|url>', 'try this mirror first (repeatable)', (value: string, previous: string[] = []) => [...previous, value])
    .option('--no-mirrors', 'never switch to a mirror; only retry the same index')
    .option('--max-attempts <n>', 'attempts in all, the first included (default 4)', positiveInteger)
    .addOption(new Option('--no-input', 'never ask questions (implied when stdin is not a terminal or CI is set)'))
    .option('-y, --yes', 'take the safe default instead of asking')
    .option('--no-pty', 'run the tool with pipes even in a terminal (no pseudo-terminal)')
    .addHelpText('after', EXAMPLES)
    .passThroughOptions()
    .enablePositionalOptions()
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ writeErr: text => process.stderr.write(text), writeOut: text => process.stdout.write(text) })
    .action(async (tool: string | undefined, args: string[], options: GlobalOptions) => {
      if (!tool) {
        program.outputHelp({ error: true })
        throw new ResilientError('No tool given.', EXIT.usage, 'Write the tool and its arguments: resilient pip install <package>.')
      }
      const { runTool } = await import('./commands/run-tool.js')
      program.setOptionValue('exitCode', await runTool([tool, ...args], options))
    })

  program.command('why')
    .description('explain a failure log: category, evidence, whether a retry or a mirror can help, what to do')
    .argument('[file]', 'a saved log; reads stdin when absent or "-"')
    .option('--tool <name>', 'the tool that wrote the log (guessed from the text when absent)')
    .option('--json', 'print exactly one JSON object')
    .addHelpText('after', '\nExamples:\n  $ resilient why ci.log\n  $ pip install torch 2>&1 | resilient why --tool pip\n  $ resilient why --json build.log | jq .category')
    .action(async (file: string | undefined, options: { tool?: string; json?: boolean }) => {
      const { runWhy } = await import('./commands/why.js')
      program.setOptionValue('exitCode', await runWhy(file, options))
    })

  program.command('demo')
    .description('start a black-holed index and a healthy local mirror, and run the real pip through resilient')
    .addHelpText('after', '\nExample:\n  $ resilient demo')
    .action(async () => {
      const { runDemo } = await import('./commands/demo.js')
      program.setOptionValue('exitCode', await runDemo())
    })
  return program
}

/** Parses argv, runs the command, and maps every failure to a one-paragraph message and an exit code. */
export async function runCli(argv: string[]): Promise<number> {
  const program = buildProgram()
  try {
    await program.parseAsync(argv, { from: 'user' })
    return Number(program.getOptionValue('exitCode') ?? 0)
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return 0
      return EXIT.usage
    }
    if (error instanceof ResilientError) {
      process.stderr.write(redact(`resilient: ${error.message}${error.hint ? `\n  → ${error.hint}` : ''}\n`))
      return error.exitCode
    }
    const debug = argv.includes('--debug')
    process.stderr.write(redact(`resilient: internal error: ${(error as Error)?.message ?? String(error)}\n  → This is a bug in resilient; please report it with the command you ran${debug ? '' : ' (add --debug for details)'}.\n`))
    if (debug) process.stderr.write(redact(`${(error as Error)?.stack ?? ''}\n`))
    return 70
  }
}
