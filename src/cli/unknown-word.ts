import { closestName } from '../closest-name.js'
import { EXIT, ResilientError, UnknownToolError } from '../errors.js'
import { SUBCOMMANDS } from './subcommands.js'

/**
 * The first word was neither a command of resilient's nor a tool it knows. A command it is one or two edits away from
 * is suggested before a tool (`confg` is config, not conda: someone typing a command word means resilient's own),
 * and the message names both lists.
 */
export function unknownFirstWord(error: UnknownToolError): ResilientError {
  const commands = [...SUBCOMMANDS]
  const command = closestName(error.tool, commands)
  const guess = command ?? error.closest
  return new ResilientError(`"${error.tool}" is not a command or a tool resilient knows.${guess ? ` Did you mean ${guess}?` : ''}`, EXIT.usage,
    `Commands: ${commands.join(', ')} (resilient help <command>). Tools: ${error.known.join(', ')}; write the tool first: resilient pip install <package>.`)
}

/** Runs a tool command, with a mistyped first word answered by unknownFirstWord. */
export async function withFirstWordHelp<T>(first: string | undefined, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof UnknownToolError && error.tool === first) throw unknownFirstWord(error)
    throw error
  }
}
