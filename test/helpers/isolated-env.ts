import { existsSync, mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'

// Settings on developer and CI machines that would change what pip, npm and friends do (see README "Testing").
const POISON = /^(PIP_|UV_|CONDA|MAMBA_|PIXI_|POETRY_|PDM_|PIPX_|npm_config_|NPM_CONFIG_|pnpm_config_|YARN_|BUN_|CARGO_|GO(PROXY|PRIVATE|FLAGS|SUMDB|NOSUMDB|NOPROXY)$|RESILIENT_|REQUESTS_CA_BUNDLE$|CURL_CA_BUNDLE$|SSL_CERT_|NODE_EXTRA_CA_CERTS$|NODE_COMPILE_CACHE$|NODE_DISABLE_COMPILE_CACHE$|HTTPS?_PROXY$|https?_proxy$|ALL_PROXY$|all_proxy$|NO_PROXY$|no_proxy$|VIRTUAL_ENV$|GITHUB_ACTIONS$|GITLAB_CI$|CI$)/

/**
 * Where rustup keeps its toolchains: an installation, not a setting. rustup's `cargo` proxy looks in $HOME/.rustup,
 * and with a temporary HOME it finds no default toolchain and every `cargo` fails ("rustup could not choose a
 * version of cargo to run"). Only rustup's proxies read it; a distribution's cargo ignores it.
 */
function toolchains(): Record<string, string> {
  const rustupHome = process.env.RUSTUP_HOME ?? join(userInfo().homedir, '.rustup')
  return existsSync(rustupHome) ? { RUSTUP_HOME: rustupHome } : {}
}

/**
 * Where resilient keeps its compiled code in tests (src/cli/code-cache.ts): one folder for all the runs of a test
 * process, as one user's cache is shared by their runs, instead of some 400 kB in each temporary HOME.
 */
const codeCache = mkdtempSync(join(tmpdir(), 'resilient-code-cache-'))

/**
 * An environment in which a real tool sees nothing of the machine's own configuration: no PIP_ or npm_config_
 * variables, no user pip.conf (PIP_CONFIG_FILE=/dev/null), a temporary HOME, XDG dirs and caches.
 */
export function isolatedEnv(extra: Record<string, string> = {}): Record<string, string> {
  const home = mkdtempSync(join(tmpdir(), 'resilient-home-'))
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !POISON.test(name)) env[name] = value
  }
  for (const dir of ['.config', '.cache', '.local/state']) mkdirSync(join(home, dir), { recursive: true })
  Object.assign(env, {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local/state'),
    RESILIENT_STATE_DIR: join(home, '.local/state/resilient'),
    PIP_CONFIG_FILE: '/dev/null',
    PIP_DISABLE_PIP_VERSION_CHECK: '1',
    PIP_NO_INPUT: '1',
    npm_config_userconfig: join(home, '.npmrc'),
    npm_config_cache: join(home, '.npm'),
    npm_config_update_notifier: 'false',
    // pnpm 11+ reads no npm_config_ settings (@pnpm/config envVars.ts): without its own, it asks the registry for pnpm.
    pnpm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    NO_COLOR: '1',
    NODE_COMPILE_CACHE: codeCache,
  }, toolchains(), extra)
  return env
}

export { POISON }
