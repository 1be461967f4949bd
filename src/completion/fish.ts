import type { CompletionCommand, CompletionModel, CompletionOption } from './model.js'

const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`

function optionLine(option: CompletionOption, condition: string): string {
  const parts = option.flags.map(flag => flag.startsWith('--') ? `-l ${flag.slice(2)}` : `-s ${flag.slice(1)}`)
  const value = option.value === 'file' ? ' -r -F' : option.value === 'other' ? ' -r' : ''
  return `complete -c resilient -n ${quote(condition)} ${parts.join(' ')}${value} -d ${quote(option.description)}`
}

function commandLines(command: CompletionCommand, path: string[], tools: string[]): string[] {
  const seen = path.map(name => `__fish_seen_subcommand_from ${name}`).join('; and ')
  const lines = command.options.map(option => optionLine(option, seen))
  const values = Array.isArray(command.argument) ? command.argument : command.argument === 'tool' ? tools : []
  const subs = command.subcommands.map(sub => sub.name)
  const notSub = subs.length ? `; and not __fish_seen_subcommand_from ${subs.join(' ')}` : ''
  for (const sub of command.subcommands) lines.push(`complete -c resilient -f -n ${quote(seen + notSub)} -a ${sub.name} -d ${quote(sub.description)}`)
  if (values.length) lines.push(`complete -c resilient -f -n ${quote(seen)} -a ${quote(values.join(' '))}`)
  if (command.argument === 'file') lines.push(`complete -c resilient -F -n ${quote(seen)}`)
  return [...lines, ...command.subcommands.flatMap(sub => commandLines(sub, [...path, sub.name], tools))]
}

/** `resilient completion fish`: after a tool name, fish completes as that tool would (__fish_complete_subcommand). */
export function renderFish(model: CompletionModel): string {
  const commands = model.commands.map(command => command.name)
  const first = `__fish_use_subcommand`
  const afterTool = `__fish_seen_subcommand_from ${model.tools.join(' ')}; and not __fish_seen_subcommand_from ${commands.join(' ')}`
  return [
    '# fish completion for resilient. Load it with: resilient completion fish | source',
    '# or save it as ~/.config/fish/completions/resilient.fish',
    'complete -c resilient -e',
    ...model.options.map(option => optionLine(option, first)),
    ...model.commands.map(command => `complete -c resilient -f -n ${first} -a ${command.name} -d ${quote(command.description)}`),
    `complete -c resilient -f -n ${first} -a ${quote(model.tools.join(' '))} -d 'package manager'`,
    `complete -c resilient -n ${quote(afterTool)} -x -a '(__fish_complete_subcommand --fcs-skip=1)'`,
    ...model.commands.flatMap(command => commandLines(command, [command.name], model.tools)),
    '',
  ].join('\n')
}
