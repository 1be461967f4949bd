import type { Category, Remedy } from './types.js'

/** The default remedy per category; a rule may override it, and src/retry/policy.ts adapts it to the source. */
export const DEFAULT_REMEDIES: Record<Category, Remedy> = {
  timeout: { kind: 'switch-mirror' },
  connection: { kind: 'switch-mirror' },
  dns: { kind: 'switch-mirror' },
  server_error: { kind: 'switch-mirror' },
  http_auth: { kind: 'switch-mirror' },
  rate_limited: { kind: 'wait' },
  hash_mismatch: { kind: 'switch-mirror', bypassCache: true },
  package_not_found: { kind: 'upstream' },
  lock_busy: { kind: 'retry' },
  ssl: { kind: 'give-up', hint: 'A TLS certificate could not be verified. If a corporate proxy inspects TLS, point the tool at its CA bundle (pip: --cert /path/ca.pem or PIP_CERT; npm: --cafile; conda: ssl_verify: /path/ca.pem), or trust that host for this run only (pip: --trusted-host <host>). Check the system clock too.' },
  proxy: { kind: 'give-up', hint: 'The proxy refused or failed the request. Check HTTPS_PROXY/HTTP_PROXY (and pip --proxy, npm https-proxy): the host, the port, and the credentials if it asks for authentication (407).' },
  resolution_conflict: { kind: 'give-up', hint: 'The requested versions cannot be installed together. Relax a pin, or install the conflicting packages one at a time to see which requirement conflicts.' },
  build_failure: { kind: 'give-up', hint: 'Building from source failed. Install the compiler and headers named above, or pick a version that ships a wheel for this platform (pip: --only-binary=:all: to check).' },
  python_version: { kind: 'give-up', hint: 'The package does not support this Python version. Use a Python the package supports (a venv with another interpreter), or pin an older release of the package.' },
  permission: { kind: 'give-up', hint: 'No permission to write there. Use a virtual environment (python3 -m venv .venv && . .venv/bin/activate), or install for your user only (pip --user); do not use sudo.' },
  externally_managed: { kind: 'give-up', hint: 'This Python is managed by the OS (PEP 668). Create a virtual environment: python3 -m venv .venv && . .venv/bin/activate, then run the install again; or use pipx for applications.' },
  disk_full: { kind: 'give-up', hint: 'The disk is full. Free space, or clean the tool caches (pip cache purge, npm cache clean --force, conda clean --all).' },
  module_not_found: { kind: 'give-up', hint: 'A module is missing: install it, or run the script with `resilient run -- <command>` to install it safely.' },
  other: { kind: 'give-up', hint: 'This does not look like a network failure, so retrying will not help. Read the error above.' },
}

/** Categories for which another attempt can succeed without the person doing anything. */
export function isRetryable(category: Category): boolean {
  return DEFAULT_REMEDIES[category].kind !== 'give-up'
}
