import type { Command } from 'commander'
import { renderBash } from '../../completion/bash.js'
import { renderFish } from '../../completion/fish.js'
import { completionModel } from '../../completion/model.js'
import { renderZsh } from '../../completion/zsh.js'
import { UsageError } from '../../errors.js'
import { knownToolNames } from '../../shims/tool-names.js'

const RENDERERS = { bash: renderBash, zsh: renderZsh, fish: renderFish } satisfies Record<string, (model: ReturnType<typeof completionModel>) => string>
export const COMPLETION_SHELLS = Object.keys(RENDERERS) as (keyof typeof RENDERERS)[]

/** `resilient completion <shell>`: a completion script built from the program's own commands and options. */
export async function runCompletion(shell: string, program: Command): Promise<number> {
  const render = RENDERERS[shell as keyof typeof RENDERERS]
  if (!render) throw new UsageError(`resilient completion does not know the shell "${shell}".`, `Use one of: ${COMPLETION_SHELLS.join(', ')}.`)
  process.stdout.write(render(completionModel(program, knownToolNames())))
  return 0
}
