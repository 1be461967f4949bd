import type { Config } from '../config/schema.js'

/** resilient's own options for a tool run, as commander hands them over (or a program calling runTool gives them). */
export interface RunFlags {
  dryRun?: boolean
  report?: string
  quiet?: boolean
  verbose?: boolean
  debug?: boolean
  mirror?: string[]
  mirrors?: boolean
  relay?: boolean
  maxAttempts?: number
  input?: boolean
  yes?: boolean
  pty?: boolean
  offline?: boolean
}

/** The global flags that are config settings (the highest precedence; see docs/config.md). */
export function configFlags(options: RunFlags): Partial<Config> {
  return {
    maxAttempts: options.maxAttempts,
    mirrors: options.mirrors === false ? false : undefined,
    relay: options.relay === false ? false : undefined,
    offline: options.offline ? true : undefined,
  }
}
