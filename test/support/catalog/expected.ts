import { statusOf } from '../../../src/diagnose/http-status.js'
import type { Message } from './types.js'

/** The rule an HTTP status stands for when the message says nothing else (`status` entries of the catalog). */
export function ruleForStatus(status: number): string {
  if (status === 401 || status === 403 || status === 405) return 'any-http-auth'
  if (status === 404 || status === 410) return 'any-http-not-found'
  if (status === 408) return 'any-timeout'
  if (status === 429) return 'any-rate-limited'
  return 'any-server-error'
}

/** The rule that must claim a filled message: its own, or the one its status stands for. */
export function expectedRule(message: Message, line: string): string {
  if (message.rule !== 'status') return message.rule
  const status = statusOf(line) ?? Number(/\b([45]\d\d)\b/.exec(line)?.[1])
  return ruleForStatus(status)
}
