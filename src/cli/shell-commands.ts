import { settle } from './exit-status-of.js'
import type { ExitStatus } from '../run/signal-router.js'
import { Argument, type Command } from 'commander'
import { SHELLS } from '../shims/shell-lines.js'

// Kept here rather than imported, so that `resilient <tool>` never loads the completion renderers.
const COMPLETION_SHELLS = ['bash', 'zsh', 'fish']

const examples = (...lines: string[]) => `\nExamples:\n${lines.map(line => `  $ ${line}`).join('\n')}`

/** `shim`, `init`, `doctor`, `logs`, `completion`: living in shells and CI (docs/shims.md, docs/ci.md). Loaded lazily. */
export function registerShellCommands(program: Command): void {
  const done = (status: ExitStatus | number) => settle(program, status)

  const shim = program.command('shim')
    .description('put shims first on PATH so that plain `pip`, `npm`, ... run through resilient')
    .enablePositionalOptions()
    .addHelpText('after', examples('resilient shim install', 'resilient shim install --dir ~/bin/resilient pip npm', 'resilient shim uninstall'))
  shim.command('install')
    .description('write shims for the tools found on PATH (or those named) and print the line for your shell profile')
    .argument('[tools...]', 'tool names (default: every tool resilient knows that is on PATH)')
    .option('--dir <dir>', 'where to write them (default: ~/.local/share/resilient/shims)')
    .addHelpText('after', examples('resilient shim install', 'resilient shim install pip pip3 uv'))
    .action(async (tools: string[], options: { dir?: string }) => {
      const { runShimInstall } = await import('./commands/shim.js')
      done(await runShimInstall(tools, options))
    })
  shim.command('uninstall')
    .description('remove the shims resilient wrote (all, or those named)')
    .argument('[tools...]', 'tool names (default: all)')
    .option('--dir <dir>', 'the shim directory (default: ~/.local/share/resilient/shims)')
    .addHelpText('after', examples('resilient shim uninstall', 'resilient shim uninstall npm'))
    .action(async (tools: string[], options: { dir?: string }) => {
      const { runShimUninstall } = await import('./commands/shim.js')
      done(await runShimUninstall(tools, options))
    })
  shim.command('run', { hidden: true })
    .description('what a shim runs: the tool through resilient, the real one found on PATH after the shims')
    .argument('<tool>').argument('[args...]')
    .passThroughOptions().helpOption(false)
    .action(async (tool: string, args: string[]) => {
      const { runShim } = await import('./commands/shim-run.js')
      done(await runShim(tool, args))
    })

  program.command('init')
    .description('print shell functions that run package managers through resilient in an interactive shell (bash, zsh: read-only calls skip it)')
    .addArgument(new Argument('<shell>', 'your shell').choices(SHELLS))
    .addHelpText('after', examples('eval "$(resilient init bash)"        # in ~/.bashrc', 'resilient init fish | source            # in ~/.config/fish/config.fish', 'resilient init powershell | Out-String | Invoke-Expression'))
    .action(async (shell: string) => {
      const { runInit } = await import('./commands/init.js')
      done(await runInit(shell))
    })

  program.command('doctor')
    .description('show the tools, indexes, proxies, config, shims and state resilient sees, and fix what is broken')
    .option('--json', 'print one JSON object')
    .addHelpText('after', `${examples('resilient doctor', 'resilient doctor --json | jq .problems')}\n\nExit code: 1 when something is broken, else 0.`)
    .action(async (options: { json?: boolean }) => {
      const { runDoctor } = await import('./commands/doctor.js')
      done(await runDoctor(options))
    })

  program.command('logs')
    .description('list past runs (every run that talks to an index writes a JSON log to the state directory)')
    .option('--last', 'show every attempt of the most recent run')
    .option('--json', 'print JSON (an array, or one object with --last)')
    .option('-n, --limit <count>', 'how many runs to list (default 20)', value => Math.max(1, Number.parseInt(value, 10) || 20))
    .addHelpText('after', examples('resilient logs', 'resilient logs --last', 'resilient logs --last --json | jq .attempts'))
    .action(async (options: { last?: boolean; json?: boolean; limit?: number }) => {
      const { runLogs } = await import('./commands/logs.js')
      done(await runLogs(options))
    })

  program.command('completion')
    .description('print a shell completion script (subcommands, options and tools)')
    .addArgument(new Argument('<shell>', 'your shell').choices(COMPLETION_SHELLS))
    .addHelpText('after', examples('source <(resilient completion bash)      # in ~/.bashrc', 'resilient completion zsh > "${fpath[1]}/_resilient"', 'resilient completion fish > ~/.config/fish/completions/resilient.fish'))
    .action(async (shell: string) => {
      const { runCompletion } = await import('./commands/completion.js')
      done(await runCompletion(shell, program))
    })
}
