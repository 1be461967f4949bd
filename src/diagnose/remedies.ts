import type { AdviceSubject } from '../tools/advice.js'
import type { Category, Diagnosis, Facts, Remedy } from './types.js'

/**
 * The default remedy per category, the one table of what resilient does about a cause: a rule may override it, and
 * src/retry/policy.ts applies it to the source (a sole source, a private index, the attempts left).
 */
export const DEFAULT_REMEDIES: Record<Category, Remedy> = {
  timeout: { kind: 'switch-mirror' },
  connection: { kind: 'switch-mirror' },
  dns: { kind: 'switch-mirror' },
  // A 5xx is the index answering that it fails for now: waited for once (as a 429), then another source.
  server_error: { kind: 'wait' },
  http_auth: { kind: 'switch-mirror' },
  rate_limited: { kind: 'wait' },
  hash_mismatch: { kind: 'switch-mirror', bypassCache: true },
  package_not_found: { kind: 'upstream' },
  lock_busy: { kind: 'retry' },
  ssl: { kind: 'give-up', hint: 'A TLS certificate could not be verified. If a corporate proxy inspects TLS, point the tool at its CA bundle (pip: --cert /path/ca.pem or PIP_CERT; npm: --cafile; conda: ssl_verify: /path/ca.pem), or trust that host for this run only (pip: --trusted-host <host>). Check the system clock too.' },
  proxy: { kind: 'give-up', hint: 'The proxy refused or failed the request. Check HTTPS_PROXY/HTTP_PROXY (and pip --proxy, npm https-proxy): the host, the port, and the credentials if it asks for authentication (407).' },
  resolution_conflict: { kind: 'give-up', hint: 'The requested versions cannot be installed together. Relax a pin, or install the conflicting packages one at a time to see which requirement conflicts.' },
  build_failure: { kind: 'give-up', hint: 'Building from source failed. Install the compiler and headers named above, or pick a version that ships a wheel for this platform (pip: --only-binary=:all: to check).' },
  python_version: { kind: 'give-up', hint: 'The package does not support this runtime version. Use a Python (or Node) the package supports (a venv with another interpreter, nvm for Node), or pin an older release of the package.' },
  permission: { kind: 'give-up', hint: 'No permission to write there. Use a virtual environment (python3 -m venv .venv && . .venv/bin/activate), or install for your user only (pip --user; npm: set a user prefix with npm config set prefix ~/.local); do not use sudo. If a cache directory is owned by root, give it back: sudo chown -R "$USER" <that directory>.' },
  externally_managed: { kind: 'give-up', hint: 'This Python is managed by the OS (PEP 668). Create a virtual environment: python3 -m venv .venv && . .venv/bin/activate, then run the install again; or use pipx for applications.' },
  disk_full: { kind: 'give-up', hint: 'The disk is full. Free space, or clean the tool caches (pip cache purge, uv cache clean, npm cache clean --force, conda clean --all), or point the temporary directory elsewhere (TMPDIR=/bigger/disk).' },
  module_not_found: { kind: 'give-up', hint: 'A module is missing: install it into the interpreter that runs the script (python -m pip install <package>, npm install <package>), or run the script with `resilient run -- <command>` to install it safely.' },
  other: { kind: 'give-up', hint: 'This does not look like a network failure, so retrying will not help. Read the error lines above: they name the file, option or package at fault.' },
}

/** What resilient does about a retryable failure, and what the person can do by hand. */
const RETRY_STEPS: Partial<Record<Category, string>> = {
  timeout: 'Run the command through resilient (resilient <tool> <args>): it retries on a mirror. By hand, give the tool more time (pip --timeout 60, UV_HTTP_TIMEOUT=120, npm --fetch-timeout=120000, CARGO_HTTP_TIMEOUT=120, conda config --set remote_read_timeout_secs 120) or use a mirror closer to you (pip -i https://mirrors.aliyun.com/pypi/simple, npm --registry https://registry.npmmirror.com, GOPROXY=https://goproxy.cn).',
  connection: 'Run the command through resilient (resilient <tool> <args>): it retries and switches to a mirror. By hand, run it again, or pass a mirror (pip -i https://mirrors.aliyun.com/pypi/simple, npm --registry https://registry.npmmirror.com).',
  dns: 'The index host name did not resolve. Run the command through resilient (resilient <tool> <args>) to try a mirror; if no host resolves, check /etc/resolv.conf (in Docker: docker build --network host, or set "dns" in /etc/docker/daemon.json).',
  server_error: 'The index is failing on its side. Run the command through resilient (resilient <tool> <args>): it retries after a pause and then on a mirror.',
  http_auth: 'A public mirror blocked the request (HTTP 401/403): run the command through resilient (resilient <tool> <args>) to use another mirror. If this is your private index, give it credentials (a ~/.netrc entry, a keyring, or the token in the tool\'s config), never on a shared command line.',
  rate_limited: 'The index asked to slow down (HTTP 429). Wait for the time it gives (Retry-After), or run through resilient (resilient <tool> <args>), which waits or moves to a mirror.',
  hash_mismatch: 'A download arrived truncated or corrupted. Run the command again without the cache (pip --no-cache-dir, npm cache verify, conda clean --packages, YARN_CHECKSUM_BEHAVIOR=reset); resilient does this on another mirror. Never turn hash checking off; if the lock file itself is out of date, regenerate it.',
  package_not_found: 'Check the name and the version (pip index versions <name>, npm view <name> versions, conda search <name>). If you use a mirror, it may lag behind: resilient retries the upstream index once.',
  lock_busy: 'Another process holds the tool\'s lock. Wait for it to finish (resilient retries after a pause); if none is running, remove the stale lock file named above.',
  // An unknown cause that touched the network (unclassified-network, pip-nothing-listed): one try elsewhere, no guess.
  other: 'The output does not say what failed. Through resilient (resilient <tool> <args>) the command gets one try on another source. By hand, run it again with the tool\'s verbose option (pip -vv, npm --loglevel verbose, uv -v) to see what each index answered, and check the name and version.',
}

/** The next step for the person, for any diagnosis. */
export function nextStepFor(category: Category, remedy: Remedy): string {
  if (remedy.kind === 'give-up') return remedy.hint
  return RETRY_STEPS[category] ?? 'Run the command through resilient (resilient <tool> <args>): it retries on its own.'
}

/**
 * Retryable, with what the facts add: a 401/403 helps on another mirror only when the host is public (a private
 * index wants credentials); a missing package may appear upstream only when a mirror answered.
 */
export function isRetryableWith(category: Category, remedy: Remedy, facts: Facts): boolean {
  if (remedy.kind === 'give-up') return false
  const publicHost = facts.hostRole === 'mirror' || facts.hostRole === 'upstream' || facts.hostRole === 'file-host'
  if (category === 'http_auth') return publicHost
  if (category === 'package_not_found') return facts.hostRole === 'mirror'
  return true
}

/**
 * What the tool's own advice (src/tools/advice.ts) is asked about, or undefined when the rule says what to do itself:
 * pip ignoring a plain-HTTP index is filed under TLS, but its fix is https or --trusted-host, never a CA bundle.
 */
export function adviceSubject({ category, facts, remedy }: Pick<Diagnosis, 'category' | 'facts'> & Partial<Pick<Diagnosis, 'remedy'>>): AdviceSubject | undefined {
  if (remedy?.kind === 'give-up' && remedy.hint !== (DEFAULT_REMEDIES[category] as { hint?: string }).hint) return undefined
  return { cause: category, host: facts.host, errno: facts.errno }
}
