import { constants } from 'node:os'

/** Exit codes resilient itself uses; any other code is the child's own. Documented in docs/exit-codes.md. */
export const EXIT = {
  usage: 64,
  /** `resilient run`: the install failed, or its check failed and what it added was removed (EX_UNAVAILABLE). */
  installFailed: 69,
  /** A file resilient must create could not be (EX_CANTCREAT): something is in the way, or no permission. */
  cantCreate: 73,
  /** `resilient run`: nothing installed because the person said no at its question (EX_NOPERM). */
  declined: 77,
  config: 78,
  notExecutable: 126,
  notFound: 127,
  /** Ended by Ctrl-C or SIGTERM: 128 + the signal's number, as a shell reports it (130 and 143 on Linux and macOS). */
  interrupted: 128 + constants.signals.SIGINT,
  terminated: 128 + constants.signals.SIGTERM,
} as const

/** A failure of resilient itself (never of the child): a message, what to do next, and the exit code. */
export class ResilientError extends Error {
  constructor(message: string, readonly exitCode: number, readonly hint?: string) {
    super(message)
    this.name = new.target.name
  }
}

export class UsageError extends ResilientError {
  constructor(message: string, hint?: string) {
    super(message, EXIT.usage, hint ?? 'Run `resilient --help` for usage.')
  }
}

export class UnknownToolError extends ResilientError {
  /** `tool`: the word typed; `known`: the tools' names; `closest`: the tool it probably is. */
  constructor(readonly tool: string, readonly known: string[], readonly closest?: string) {
    super(`"${tool}" is not a tool resilient knows.${closest ? ` Did you mean ${closest}?` : ''}`, EXIT.usage,
      `Supported tools: ${known.join(', ')}. Write the tool name first: resilient pip install <package>.`)
  }
}

export class ToolNotFoundError extends ResilientError {
  constructor(tool: string, found: string[]) {
    super(`"${tool}" was not found on PATH.`, EXIT.notFound,
      found.length ? `Found instead: ${found.join(', ')}. Try: resilient ${found[0]} ...` : 'Install it, or check PATH.')
  }
}

/** The shell's 126: the first file of that name on PATH cannot be executed (bash stops there too). */
export class ToolNotExecutableError extends ResilientError {
  constructor(path: string) {
    super(`${path}: Permission denied (the file is not executable).`, EXIT.notExecutable,
      `Make it executable (chmod +x ${path}), or put the directory of the one you mean first on PATH.`)
  }
}

export class ConfigError extends ResilientError {
  constructor(message: string, hint?: string) {
    super(message, EXIT.config, hint ?? 'Fix the file, or run `resilient config` to see the effective configuration.')
  }
}
