import { DEFAULT_REMEDIES } from '../../../src/diagnose/remedies.js'
import { RULES } from '../../../src/diagnose/rules/index.js'
import type { Remedy } from '../../../src/diagnose/types.js'
import { CATALOG } from './index.js'

const DOES: Record<Remedy['kind'], string> = {
  'switch-mirror': 'retries on another source',
  retry: 'retries the same source after a pause',
  wait: 'waits as asked (Retry-After), or moves to another source',
  upstream: 'tries the upstream index once (a mirror may lag)',
  'give-up': 'stops and says what to do',
}

/** The docs/diagnosis.md table: tool → message recognised (its source) → label → what resilient does. */
export function renderCatalogTable(): string {
  const rows = Object.entries(CATALOG).flatMap(([tool, messages]) => messages.map(message => {
    const rule = RULES.find(candidate => candidate.id === message.rule)
    const label = rule ? `\`${rule.category}\` (\`${rule.id}\`)` : 'by the status: 401/403 `http_auth`, 404 `package_not_found`, 429 `rate_limited`, 5xx `server_error`'
    const does = rule ? DOES[(rule.remedy ?? DEFAULT_REMEDIES[rule.category]).kind] : 'by the status (see those labels)'
    const template = `${message.prefix ?? ''}${message.template}`.trim().replaceAll('|', '\\|').replaceAll('`', "'").replaceAll('\n', ' ⏎ ')
    const source = `${message.source.repo} \`${message.source.file}\` ${message.source.version}${message.source.checkedAgainst ? ` (checked against ${message.source.checkedAgainst})` : ''}`
    return `| ${tool} | \`${template}\` | ${source} | ${label} | ${does} |`
  }))
  return ['| tool | message | formed in | label (rule) | what resilient does |', '| --- | --- | --- | --- | --- |', ...rows].join('\n')
}
