import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { UsageError } from '../../errors.js'
import { pathWithoutShims } from '../../shims/shim-dir.js'
import { aliasLines, PROFILE_FILES, SHELLS, type Shell } from '../../shims/shell-lines.js'
import { knownToolNames, readOnlyFormsFor } from '../../shims/tool-names.js'
import { which } from '../../tools/argv/which.js'
import { resilientEntry } from './shim.js'

const LOAD_LINE: Record<Shell, string> = {
  bash: 'eval "$(resilient init bash)"',
  zsh: 'eval "$(resilient init zsh)"',
  fish: 'resilient init fish | source',
  powershell: 'resilient init powershell | Out-String | Invoke-Expression',
}

/** `resilient init <shell>`: aliases for an interactive shell, the alternative to shims (no PATH change). */
export async function runInit(shell: string): Promise<number> {
  if (!(SHELLS as readonly string[]).includes(shell)) throw new UsageError(`resilient init does not know the shell "${shell}".`, `Use one of: ${SHELLS.join(', ')}.`)
  const chosen = shell as Shell
  const env = process.env
  const realPath = pathWithoutShims(env.PATH)
  const tools = knownToolNames().filter(tool => which(tool, { ...env, PATH: realPath }))
  // `resilient` itself when it is on PATH (npm link, a global install), else the launcher beside this copy (it keeps
  // the ignored signals and inherited descriptors Node cannot see; docs/process.md), else this very node and script.
  const launcher = join(dirname(dirname(resilientEntry())), 'bin', 'resilient')
  const resilient = which('resilient', env) ? ['resilient'] : chosen !== 'powershell' && existsSync(launcher) ? [launcher] : [process.execPath, resilientEntry()]
  const fastPath = chosen === 'bash' || chosen === 'zsh'
  const lines = [
    `# resilient: run package managers through resilient in this shell. Add to ${PROFILE_FILES[chosen]}:`,
    `#   ${LOAD_LINE[chosen]}`,
    fastPath ? '# Read-only calls (npm --version, pip list) run the tool itself, as shims do.'
      : '# Each call starts resilient, read-only ones too (npm --version): shims are faster there (resilient shim install).',
    ...(tools.length ? aliasLines(chosen, tools, resilient, readOnlyFormsFor) : [`# (none of ${knownToolNames().join(', ')} was found on PATH)`]),
  ]
  process.stdout.write(`${lines.join('\n')}\n`)
  return 0
}
