import { linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

const PERMISSION = /\bEACCES\b|\bEPERM\b|Errno 13\b|Permission denied|Access is denied|WinError 5\b|Operation not permitted|check the permissions|Consider using the `--user` option/i

export const anyPermission = {
  id: 'any-permission',
  category: 'permission',
  tools: 'any',
  summary: 'No permission to write where the tool installs',
  match: failure => {
    const evidence = linesMatching(failure, PERMISSION)
    return evidence.length ? { evidence } : null
  },
} satisfies Rule
