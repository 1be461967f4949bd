import { valueFlags, type CompletionCommand, type CompletionModel, type CompletionOption } from './model.js'

const words = (list: string[]) => list.join(' ')

/** `case "$prev"` arms for options taking a value: a path completes files, anything else completes nothing. */
function valueArms(options: CompletionOption[]): string {
  const files = options.filter(option => option.value === 'file').flatMap(option => option.flags)
  const others = options.filter(option => option.value === 'other').flatMap(option => option.flags)
  return [
    files.length ? `${files.join('|')}) COMPREPLY=($(compgen -f -- "$cur")); return ;;` : '',
    others.length ? `${others.join('|')}) return ;;` : '',
  ].filter(Boolean).join(' ')
}

function arm(pattern: string, command: CompletionCommand, tools: string[]): string {
  const candidates = [...command.options.flatMap(option => option.flags), ...command.subcommands.map(sub => sub.name)]
  if (Array.isArray(command.argument)) candidates.push(...command.argument)
  if (command.argument === 'tool') candidates.push(...tools)
  const prev = valueArms(command.options)
  const files = command.argument === 'file' ? ' COMPREPLY+=($(compgen -f -- "$cur"));' : ''
  return `      ${pattern}) ${prev ? `case "$prev" in ${prev} esac; ` : ''}COMPREPLY=($(compgen -W "${words(candidates)}" -- "$cur"));${files} ;;`
}

function arms(command: CompletionCommand, tools: string[], prefix = ''): string[] {
  const key = `${prefix}${command.name}`
  if (!command.subcommands.length) return [arm(`"${key}"|"${key} "*`, command, tools)]
  return [arm(`"${key}"`, command, tools), ...command.subcommands.flatMap(sub => arms(sub, tools, `${key} `))]
}

/** `resilient completion bash`: after a tool name, completion is handed to that tool's own (bash-completion). */
export function renderBash(model: CompletionModel): string {
  const commands = model.commands.map(command => command.name)
  const globalValues = valueFlags(model.options)
  return `# bash completion for resilient. Load it with: source <(resilient completion bash)
_resilient() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}"
  local i word command="" sub=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    case "$word" in
      ${globalValues.join('|') || '--'}) ((i++)) ;;
      -*) ;;
      ${commands.join('|')}) command="$word"; break ;;
      *)
        # A tool: its arguments are its own, so complete them as the tool would.
        if declare -F _command_offset >/dev/null; then _command_offset "$i"; else COMPREPLY=($(compgen -f -- "$cur")); fi
        return ;;
    esac
  done
  if [[ -z "$command" ]]; then
    case "$prev" in ${valueArms(model.options)} esac
    if [[ "$cur" == -* ]]; then
      COMPREPLY=($(compgen -W "${words(model.options.flatMap(option => option.flags))}" -- "$cur"))
    else
      COMPREPLY=($(compgen -W "${words([...commands, ...model.tools])}" -- "$cur"))
    fi
    return
  fi
  for ((i = i + 1; i < COMP_CWORD; i++)); do
    [[ "\${COMP_WORDS[i]}" != -* ]] && { sub="\${COMP_WORDS[i]}"; break; }
  done
  case "$command\${sub:+ $sub}" in
${model.commands.flatMap(command => arms(command, model.tools)).join('\n')}
  esac
}
complete -F _resilient resilient
`
}
