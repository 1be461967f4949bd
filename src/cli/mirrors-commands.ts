import { settle } from './exit-status-of.js'
import type { ExitStatus } from '../run/signal-router.js'
import { InvalidArgumentError, Option, type Command } from 'commander'
import type { RunFlags } from '../run/flags.js'

function positiveSeconds(value: string): number {
  const number = Number(value)
  if (!Number.isFinite(number) || number <= 0) throw new InvalidArgumentError('expected a number of seconds above 0.')
  return number
}

/** `mirrors list|test|use|add|remove` (docs/mirrors.md). Each loads its command module only when it runs. */
export function registerMirrorsCommands(program: Command): void {
  const done = (status: ExitStatus | number) => settle(program, status)
  const ecosystemArgument = '[ecosystem]'
  const ecosystemHelp = 'pypi, npm, conda, crates or go (or a tool name such as pip); all when absent'
  const ecosystemOption = () => new Option('-e, --ecosystem <name>', 'pypi, npm, conda, crates or go; needed when the name or URL does not tell')
  const mirrors = program.command('mirrors')
    .description('the indexes and mirrors resilient uses: their health, their speed from here, your order and your own names')
    .addHelpText('after', '\nExamples:\n  $ resilient mirrors list pypi\n  $ resilient mirrors test pypi\n  $ resilient mirrors use tuna --ecosystem pypi\n  $ resilient mirrors add corp https://pypi.corp.example/simple\n  $ resilient mirrors remove corp')
  mirrors.command('list', { isDefault: true })
    .description('the index and mirrors in the order tried, the one used first, and what is remembered of each one\'s health')
    .argument(ecosystemArgument, ecosystemHelp)
    .option('--json', 'print one JSON object')
    .action(async (ecosystem: string | undefined, options: { json?: boolean }) => {
      const { runMirrorsList } = await import('./commands/mirrors.js')
      done(await runMirrorsList(ecosystem, options, program.opts<RunFlags>()))
    })
  mirrors.command('test')
    .description('probe every mirror at once with one small real request and rank them by latency (exit 1 when none answers)')
    .argument(ecosystemArgument, ecosystemHelp)
    .option('--timeout <seconds>', 'per probe, default 5; the whole test takes about this long', positiveSeconds)
    .option('--all', 'also probe catalog mirrors that are not in your list')
    .option('--json', 'print one JSON object')
    .action(async (ecosystem: string | undefined, options: { json?: boolean; timeout?: number; all?: boolean }) => {
      const { runMirrorsTest } = await import('./commands/mirrors.js')
      done(await runMirrorsTest(ecosystem, options, program.opts<RunFlags>()))
    })
  mirrors.command('use')
    .description('try this mirror first: saves the order in your user config')
    .argument('<name|url>', 'a catalog name, one of yours, or an index URL')
    .addOption(ecosystemOption())
    .action(async (entry: string, options: { ecosystem?: string }) => {
      const { runMirrorsUse } = await import('./commands/mirrors-edit.js')
      done(await runMirrorsUse(entry, options, program.opts<RunFlags>()))
    })
  mirrors.command('add')
    .description('name your own mirror and append it to the order (user config)')
    .argument('<name>', 'letters, digits, . _ -')
    .argument('<url>', 'the index URL as the tool expects it')
    .addOption(ecosystemOption())
    .action(async (name: string, url: string, options: { ecosystem?: string }) => {
      const { runMirrorsAdd } = await import('./commands/mirrors-edit.js')
      done(await runMirrorsAdd(name, url, options, program.opts<RunFlags>()))
    })
  mirrors.command('remove')
    .description('drop a mirror from your order (and forget its name if it was yours)')
    .argument('<name>', 'a catalog name or one of yours')
    .addOption(ecosystemOption())
    .action(async (name: string, options: { ecosystem?: string }) => {
      const { runMirrorsRemove } = await import('./commands/mirrors-edit.js')
      done(await runMirrorsRemove(name, options, program.opts<RunFlags>()))
    })
}
