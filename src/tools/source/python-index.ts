import type { KnobData } from '../adapter-data.js'

/** What the PyPI-family adapters (uv, pipx, pdm, poetry, pixi's PyPI side) share. */

/** PEP 503: names are normalised to lower case with runs of -_. as one dash. */
export function pep503PackageUrl(indexUrl: string, name: string): string {
  return `${indexUrl.replace(/\/+$/, '')}/${name.toLowerCase().replace(/[-_.]+/g, '-')}/`
}

/**
 * uv's own timeout and retries (uv-client base_client.rs): the timeout is a per-read timeout (reqwest
 * `read_timeout`), so a short value stops a silent index without cutting a slow large download. Defaults are 30 s and
 * 3 retries with backoff: about 2 minutes per request to a black hole.
 */
export const UV_KNOBS = ['UV_HTTP_TIMEOUT', 'UV_REQUEST_TIMEOUT', 'HTTP_TIMEOUT', 'UV_HTTP_RETRIES', 'UV_HTTP_CONNECT_TIMEOUT']
/** uv's knobs are variables only (uv environment.md): uv.toml has no timeout or retry key. */
export const UV_KNOB_DATA: KnobData = { env: UV_KNOBS }

/** pip's, as the pip adapter sets them: env, so that build-isolation subprocesses inherit them (pip build_env.py). */
export const PIP_KNOBS = ['PIP_TIMEOUT', 'PIP_DEFAULT_TIMEOUT', 'PIP_RETRIES']

/** pip's and uv's offline form: `--no-index --find-links <wheelhouse>` (pip install --help, uv pip install --help). */
export const WHEELHOUSE_ONLY = { args: ['--no-index'], wheelhouse: { flag: '--find-links' }, where: 'the wheelhouse' } as const
