import { linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// EACCES/EPERM in every spelling (localized ones carry the errno name added by normalisation), conda's
// NotWritableError, pip's "Consider using the `--user` option". Read after the network rules: a proxy's "Access to
// the Web Proxy filter is denied" is not a file permission.
const PERMISSION = /\bEACCES\b|\bEPERM\b|Permission denied|Access is denied|Operation not permitted|NotWritableError|NoWritablePkgsDirError|No writeable pkgs directories|does not have write permissions|Consider using the `--user` option|check the permissions|insufficient permissions(?! to access this resource)/i

// Windows answers "Access is denied" when another process holds the file uv renames into its cache: that is a busy
// file, read by uv-file-in-use, not a permission.
const IN_USE = /Failed to persist temporary file|being used by another process/

export const anyPermission = {
  id: 'any-permission',
  category: 'permission',
  tools: 'any',
  summary: 'No permission to write where the tool installs or caches',
  match: failure => {
    const evidence = linesMatching(failure, PERMISSION).filter(line => !IN_USE.test(line))
    if (!evidence.length) return null
    const path = /(?:mkdir|open|access|unlink|rename|path:?|directory) ['`]?(\/[^\s'`]{1,300}|[A-Z]:\\[^\s'`]{1,300})/.exec(evidence.join('\n'))?.[1]
    return { evidence, summary: path ? `No permission to write ${path}` : undefined }
  },
} satisfies Rule
