/** resilient's subcommands (program.ts, shell-commands.ts, help-command.ts): any other first word is a tool. */
export const SUBCOMMANDS: ReadonlySet<string> = new Set(['why', 'demo', 'run', 'mirrors', 'config', 'shim', 'init', 'doctor', 'logs', 'completion', 'help'])
