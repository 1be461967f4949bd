import type { Rule } from '../types.js'
import { anyConnection } from './any-connection.js'
import { anyDiskFull } from './any-disk-full.js'
import { anyDns } from './any-dns.js'
import { anyHttpAuth } from './any-http-auth.js'
import { anyPermission } from './any-permission.js'
import { anyProxy } from './any-proxy.js'
import { anyRateLimited } from './any-rate-limited.js'
import { anyServerError } from './any-server-error.js'
import { anySsl } from './any-ssl.js'
import { anyTimeout } from './any-timeout.js'
import { pipExternallyManaged } from './pip-externally-managed.js'
import { pipHashMismatch } from './pip-hash-mismatch.js'
import { pipNoMatchingDistribution } from './pip-no-matching-distribution.js'

/** Priority order: the first match wins. Tool-specific before `any-*`; causes before the symptoms they produce. */
export const RULES: readonly Rule[] = [
  pipExternallyManaged,
  pipHashMismatch,
  anyDiskFull,
  anyProxy,
  anySsl,
  anyDns,
  anyRateLimited,
  anyTimeout,
  anyServerError,
  anyHttpAuth,
  anyConnection,
  anyPermission,
  pipNoMatchingDistribution,
]
