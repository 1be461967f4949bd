import type { Command } from 'commander'

/** One option as completion needs it. */
export interface CompletionOption {
  flags: string[]
  description: string
  /** The option takes a value (`--report <file>`); `file` when its value is a path. */
  value?: 'file' | 'other'
}

export interface CompletionCommand {
  name: string
  description: string
  options: CompletionOption[]
  subcommands: CompletionCommand[]
  /** Fixed values of the first argument (`bash zsh fish`), or `file`/`tool`/`other`. */
  argument?: string[] | 'file' | 'tool' | 'other'
}

export interface CompletionModel {
  options: CompletionOption[]
  commands: CompletionCommand[]
  tools: string[]
}

function optionsOf(command: Command): CompletionOption[] {
  return command.createHelp().visibleOptions(command).map(option => ({
    flags: [option.short, option.long].filter((flag): flag is string => Boolean(flag)),
    description: option.description,
    value: option.required || option.optional ? (/file|dir/i.test(option.flags) ? 'file' : 'other') : undefined,
  }))
}

function argumentOf(command: Command): CompletionCommand['argument'] {
  const first = command.createHelp().visibleArguments(command)[0]
  if (!first) return undefined
  if (first.argChoices?.length) return first.argChoices
  if (/tool/i.test(first.name())) return 'tool'
  return /file|dir|path/i.test(first.name()) ? 'file' : 'other'
}

function commandOf(command: Command): CompletionCommand {
  const help = command.createHelp()
  return {
    name: command.name(),
    description: command.description(),
    options: optionsOf(command),
    subcommands: help.visibleCommands(command).filter(sub => sub.name() !== 'help').map(commandOf),
    argument: argumentOf(command),
  }
}

/** What completion offers, read from the commander program itself so it cannot drift from `--help`. */
export function completionModel(program: Command, tools: string[]): CompletionModel {
  const root = commandOf(program)
  return { options: root.options, commands: root.subcommands, tools }
}

/** Options that take a value, as a shell pattern (`--report|-m|...`). */
export function valueFlags(options: CompletionOption[]): string[] {
  return options.filter(option => option.value).flatMap(option => option.flags)
}
