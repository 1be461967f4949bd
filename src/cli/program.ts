import { Command, CommanderError, InvalidArgumentError, Option } from 'commander'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { ResilientError, EXIT } from '../errors.js'
import type { RunFlags } from '../run/flags.js'
import type { ExitStatus } from '../run/signal-router.js'
import { endingOf, settle } from './exit-status-of.js'
import { registerMirrorsCommands } from './mirrors-commands.js'
import { registerShellCommands } from './shell-commands.js'
import { registerHelpCommand } from './help-command.js'

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
  $ resilient run -- python app.py              run a script; install a missing module safely, run it again
  $ resilient mirrors test pypi                 probe every PyPI mirror at once, fastest first
  $ resilient config                            the effective settings and where each came from
  $ resilient demo                              see a recovery against local servers (no network needed)
  $ resilient doctor                            what resilient sees here: tools, indexes, proxies, config
  $ resilient shim install                      make plain \`pip ...\` run through resilient (docs/shims.md)
  $ resilient logs --last                       every attempt of the last run
  $ resilient help mirrors                      the help of one command (resilient mirrors --help)

Exit codes: the tool's own code (or its death by signal) when it fails or resilient gives up; 64 usage error;
78 config error; 126/127 tool not executable/not found, as the shell; 70 internal error. See docs/exit-codes.md.`

/** Where the docs/ this help names are: the package ships them next to dist/ (package.json "files"). */
function docsLocation(): string {
  const dir = fileURLToPath(new URL('../docs/', import.meta.url))
  return existsSync(dir) ? `\nThe docs/ named here are in ${dir}` : ''
}

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
    .option('-v, --verbose', 'show the first attempt\'s command, evidence lines, rules and decisions')
    .option('--debug', 'show internal errors in full')
    .option('-m, --mirror <name|url>', 'try this mirror first (repeatable)', (value: string, previous: string[] = []) => [...previous, value])
    .option('--no-mirrors', 'never switch to a mirror; only retry the same index')
    .option('--no-relay', "never go through resilient's local relay; restart the tool on another mirror instead")
    .option('--max-attempts <n>', 'attempts in all, the first included (default 4)', positiveInteger)
    .addOption(new Option('--no-input', 'never ask questions (implied when stdin is not a terminal or CI is set)'))
    .option('-y, --yes', 'take the safe default instead of asking')
    .option('--no-pty', 'run the tool with pipes even in a terminal (no pseudo-terminal)')
    .option('--offline', 'make no network attempt: each tool only from its cache (pip and uv: pypi.wheelhouse); docs/mirrors.md')
    .addHelpText('after', EXAMPLES + docsLocation())
    .passThroughOptions()
    .enablePositionalOptions()
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ writeErr: text => process.stderr.write(text), writeOut: text => process.stdout.write(text) })
    .action(async (tool: string | undefined, args: string[], options: RunFlags) => {
      if (!tool) {
        program.outputHelp({ error: true })
        throw new ResilientError('No tool given.', EXIT.usage, 'Write the tool and its arguments: resilient pip install <package>.')
      }
      const { toolCommand } = await import('./commands/tool-command.js')
      settle(program, await toolCommand([tool, ...args], options))
    })

  program.command('why')
    .description('explain a failure log: category, evidence, whether a retry or a mirror can help, what to do')
    .argument('[file]', 'a saved log; reads stdin when absent or "-"')
    .option('--tool <name>', 'the tool that wrote the log (guessed from the text when absent)')
    .option('--json', 'print exactly one JSON object')
    .addHelpText('after', '\nExamples:\n  $ resilient why ci.log\n  $ pip install torch 2>&1 | resilient why --tool pip\n  $ resilient why --json build.log | jq .category')
    .action(async (file: string | undefined, options: { tool?: string; json?: boolean }) => {
      const { runWhy } = await import('./commands/why.js')
      settle(program, await runWhy(file, options))
    })

  program.command('demo')
    .description('start a black-holed index and a healthy local mirror, and run the real pip through resilient')
    .addHelpText('after', '\nExample:\n  $ resilient demo')
    .action(async () => {
      const { runDemo } = await import('./commands/demo.js')
      settle(program, await runDemo())
    })

  program.command('run')
    .description("run a script; when its own final error is a missing module, install every missing import's package into the script's own environment (reviewed names, one question, one install) and run it again once")
    .usage('[--yes] [--install-only] [--allow-global] [--no-auto-install] -- <command...>')
    .argument('<command...>', 'the script as you would run it: python app.py, pytest, node app.js, npx tsx x.ts')
    .option('-y, --yes', "install reviewed names without asking (other names still need a yes in a terminal)")
    .option('--install-only', 'install what the script is missing, and do not run it again')
    .option('--allow-global', 'allow installing into a Python that is not a virtual environment (never implied by --yes)')
    .option('--no-auto-install', 'only run the command; never install anything')
    .passThroughOptions()
    .addHelpText('after', '\nExamples:\n  $ resilient run -- python3 app.py\n  $ resilient run --yes -- .venv/bin/pytest\n  $ resilient --dry-run run -- node server.js     runs it once, shows what it would install\n  $ resilient --report run.json run -- node server.js\n\nExit codes: the script\'s own whenever resilient installed nothing without asking (one line says why); 69 the\ninstall (or its check) failed; 77 you declined at the question; 130 Ctrl-C. See docs/run.md.')
    .action(async (command: string[], options: { yes?: boolean; autoInstall?: boolean; installOnly?: boolean; allowGlobal?: boolean }) => {
      const { runScript } = await import('./commands/run.js')
      settle(program, await runScript(command, options, program.opts<RunFlags>()))
    })

  registerMirrorsCommands(program)

  const config = program.command('config')
    .description('print the effective configuration and where each value came from (default, file, RESILIENT_* variable, flag)')
    .option('--json', 'print one JSON object')
    .addHelpText('after', '\nExamples:\n  $ resilient config\n  $ resilient --offline config --json\n  $ resilient config trust .resilientrc.json')
    .action(async (options: { json?: boolean }) => {
      const { runConfig } = await import('./commands/config.js')
      settle(program, await runConfig(options, program.opts<RunFlags>()))
    })
  config.command('trust')
    .description('trust a project config (code, or one sending installs to its own hosts) as it is now; a change needs trust again')
    .argument('[path]', 'the file; the project config found from here when absent')
    .action(async (path: string | undefined) => {
      const { runConfigTrust } = await import('./commands/config-trust.js')
      settle(program, await runConfigTrust(path))
    })
  registerShellCommands(program)
  registerHelpCommand(program)
  return program
}

/**
 * Parses argv with commander and runs the command; commander's own exits (help, version, a usage error it already
 * printed) become exit codes, and a tool's death by signal is passed up to be re-raised. Every other failure is left
 * to runCli (run-cli.ts), which words it.
 */
export async function runWithCommander(argv: string[]): Promise<ExitStatus> {
  const program = buildProgram()
  try {
    await program.parseAsync(argv, { from: 'user' })
    return endingOf(program)
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return { code: 0 }
    return { code: EXIT.usage }
  }
}
