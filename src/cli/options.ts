/** resilient's own options, as commander hands them over. */
export interface GlobalOptions {
  dryRun?: boolean
  report?: string
  quiet?: boolean
  verbose?: boolean
  debug?: boolean
  mirror?: string[]
  mirrors?: boolean
  maxAttempts?: number
  input?: boolean
  yes?: boolean
  pty?: boolean
}
