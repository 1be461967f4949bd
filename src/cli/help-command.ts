import type { Command } from 'commander'
import { closestName } from '../closest-name.js'
import { UsageError } from '../errors.js'

/**
 * `resilient help [command...]`, as `git help` works: the whole help, a command's (`help mirrors test` for a command
 * under another), or for a tool's name, where its page is. commander adds no `help` command of its own to a program
 * with an action of its own (resilient's: running a tool), so it is this one.
 */
export function registerHelpCommand(program: Command): void {
  program.helpCommand(false)
  program.command('help')
    .description('show the help of resilient or of one of its commands (resilient help mirrors)')
    .argument('[command...]', 'a command, and a command under it')
    .action(async (words: string[]) => {
      let command: Command = program
      for (const word of words) {
        const next = command.commands.find(sub => sub.name() === word || sub.aliases().includes(word))
        if (next) {
          command = next
          continue
        }
        const tool = command === program ? (await import('../shims/tool-names.js')).toolOf(word) : undefined
        if (tool) {
          process.stdout.write(`resilient ${word} <args...> runs ${word} through resilient: see docs/tools/${tool}.md, and \`resilient --help\` for the options that go before it.\n`)
          return
        }
        const names = command.commands.map(sub => sub.name())
        const close = closestName(word, names)
        throw new UsageError(`"${word}" is not a command of ${command === program ? 'resilient' : `resilient ${command.name()}`}.${close ? ` Did you mean ${close}?` : ''}`,
          `Commands: ${names.join(', ')}.`)
      }
      command.outputHelp()
    })
}
