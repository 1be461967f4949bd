import type { CompletionCommand, CompletionModel, CompletionOption } from './model.js'

// _arguments specs: '(-n --dry-run)'{-n,--dry-run}'[description]' and ':value:_files' for options with a value.
const escape = (text: string) => text.replace(/'/g, `'\\''`).replace(/\[/g, '\\[').replace(/\]/g, '\\]')

function optionSpec(option: CompletionOption): string {
  const value = option.value === 'file' ? ':path:_files' : option.value === 'other' ? ':value: ' : ''
  const description = `[${escape(option.description)}]${value}`
  if (option.flags.length === 1) return `'${option.flags[0]}${description}'`
  return `'(${option.flags.join(' ')})'{${option.flags.join(',')}}'${description}'`
}

function argumentSpec(command: CompletionCommand): string {
  if (command.subcommands.length) return `'1:command:(${command.subcommands.map(sub => sub.name).join(' ')})' '*:: :->sub'`
  if (Array.isArray(command.argument)) return `'1:value:(${command.argument.join(' ')})'`
  if (command.argument === 'tool') return `'*:tool:(\${tools})'`
  if (command.argument === 'file') return `'*:file:_files'`
  return ''
}

function commandFunction(command: CompletionCommand, name: string): string[] {
  const subs = command.subcommands.flatMap(sub => commandFunction(sub, `${name}_${sub.name}`))
  const dispatch = command.subcommands.length
    ? `\n  case $state in sub) case $words[1] in ${command.subcommands.map(sub => `${sub.name}) ${name}_${sub.name} ;;`).join(' ')} esac ;; esac`
    : ''
  return [`${name}() {\n  local state\n  _arguments -s ${[...command.options.map(optionSpec), argumentSpec(command)].filter(Boolean).join(' ')}${dispatch}\n}`, ...subs]
}

/** `resilient completion zsh`: after a tool name, `_normal` completes as that tool would. */
export function renderZsh(model: CompletionModel): string {
  const described = model.commands.map(command => `'${command.name}:${escape(command.description)}'`).join(' ')
  return `#compdef resilient
# zsh completion for resilient. Load it with: source <(resilient completion zsh), or save it as _resilient in $fpath.
typeset -ga _resilient_tools
_resilient_tools=(${model.tools.join(' ')})
${model.commands.flatMap(command => commandFunction(command, `_resilient_${command.name}`)).join('\n').replace(/\$\{tools\}/g, '$_resilient_tools')}
_resilient() {
  local state line
  local -a commands
  commands=(${described})
  _arguments -s -C ${model.options.map(optionSpec).join(' ')} '1: :->first' '*:: :->rest'
  case $state in
    first) _describe -t commands 'resilient command' commands; _describe -t tools 'package manager' _resilient_tools ;;
    rest)
      case $words[1] in
        ${model.commands.map(command => `${command.name}) _resilient_${command.name} ;;`).join('\n        ')}
        *) _normal ;;
      esac ;;
  esac
}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then _resilient "$@"; else compdef _resilient resilient; fi
`
}
