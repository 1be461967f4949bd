import { basename } from 'node:path'
import type { RunPlan } from '../plan/types.js'
import { printable } from '../redact.js'
import { ownText } from '../own-text.js'
import { formatCommand } from '../tools/argv/format-command.js'
import { sameIndex } from '../url.js'

/** Who the relay asks: pages from the index (a mirror's only once it failed, or never), files from every source. */
function describeRelaySources(relay: NonNullable<RunPlan['relay']>): string {
  const ids = relay.sources.map(source => source.id)
  const index = relay.sources.find(source => sameIndex(source.indexUrl, relay.index))?.id ?? ids[0]
  if (ids.length === 1) return `which asks ${index} for every page and file`
  const pages = relay.pages.failover ? `pages of ${index} (of ${ids.filter(id => id !== index).join(', ')} only once ${index} fails)` : `pages of ${index} only`
  return `which asks for ${pages}, and for files ${ids.join(', ')} per request, in that order`
}

/** One line per attempt for --dry-run: where it goes, why it has its place, and every host it will contact. */
export function describeAttempts(plan: RunPlan): string[] {
  const attempts = plan.attempts.slice(0, plan.networked ? plan.limits.maxAttempts : 1)
  return attempts.map((attempt, index) => {
    const hosts = attempt.hosts.map(host => host.role === 'index' ? host.host : `${host.host} (${host.role === 'lockfile' ? 'pinned in the lockfile' : 'its downloads'})`)
    const rewrite = attempt.lockfileRewrite ? `; ${basename(attempt.lockfileRewrite.file)} points ${attempt.lockfileRewrite.from.join(', ')} at it for this attempt only` : ''
    const relay = attempt.via === 'relay' && plan.relay
    const where = relay ? `through resilient's relay on ${relay.host}:${relay.port}, ${describeRelaySources(relay)}`
      : hosts.length ? `contacts ${hosts.join(', ')}` : 'contacts no index'
    return `# attempt ${index + 1} of ${attempts.length} on ${attempt.source.label} — ${attempt.reason}; ${where}${rewrite}`
  })
}

/**
 * The files an attempt writes for itself (pixi's mirror config): where the mirror URL is when the command line only
 * names the file. Their content as it will be written, redacted, as `#` lines under the attempt's description.
 */
export function describeFiles(command: RunPlan['attempts'][number]['command']): string[] {
  return (command.files ?? []).flatMap(file => [`#   ${file.path}:`,
    ...file.content.trimEnd().split('\n').map(line => line ? `#     ${printable(line, { escapeOnly: true })}` : '#')])
}

/**
 * `--dry-run`: each planned command on stdout, one per line (scripts read them), each preceded on stderr by the line
 * saying where it goes and which hosts it contacts.
 */
export function printPlan(plan: RunPlan, out: NodeJS.WritableStream, err: NodeJS.WritableStream, quiet: boolean): void {
  const lines = describeAttempts(plan)
  plan.attempts.slice(0, lines.length).forEach((attempt, index) => {
    // The relay's credential file holds its secret and the person's own netrc or npmrc: only named.
    const files = attempt.via === 'relay' ? (attempt.command.files ?? []).map(file => `#   ${file.path}: ${file.content.startsWith('-----BEGIN CERTIFICATE-----') ? "the relay's certificate, trusted for this attempt only" : "the relay's secret for the tool"}`) : describeFiles(attempt.command)
    if (!quiet) err.write(`${ownText([lines[index]!, ...files].join('\n'))}\n`)
    out.write(`${ownText(formatCommand(attempt.command))}\n`)
  })
}
