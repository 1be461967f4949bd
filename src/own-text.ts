import { defuseWorkflowCommands, redact } from './redact.js'

/**
 * What resilient writes outside its reporter (errors, the dry-run plan, logs, why, doctor): redacted, and under
 * GitHub Actions unable to start a workflow command, since a value from outside (an argument, a config value, a
 * tool's line quoted as evidence) may hold a line that starts with `::` once trimmed.
 */
export function ownText(text: string, env: NodeJS.ProcessEnv = process.env): string {
  const redacted = redact(text)
  return env.GITHUB_ACTIONS === 'true' ? defuseWorkflowCommands(redacted) : redacted
}
