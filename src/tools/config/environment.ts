import type { EnvironmentSetting } from '../adapter-data.js'

/** The variables `resilient doctor` explains, per tool (ToolAdapter.environment). */

// pip reads every option from PIP_<LONG_NAME> (pip configuration.md, "Environment Variables").
export const PIP_ENVIRONMENT: readonly EnvironmentSetting[] = [
  {
    names: ['PIP_TIMEOUT', 'PIP_DEFAULT_TIMEOUT', 'PIP_RETRIES'],
    note: "pip's own timeout/retries: kept, and while one is set resilient leaves an index only when pip does",
    warn: (name, value) => Number(value) > 30 || name === 'PIP_RETRIES' && Number(value) > 5
      ? { message: `${name}=${value}: a dead index costs pip up to ${name === 'PIP_RETRIES' ? `${value} retries` : `${value} s per try`} before resilient can switch to a mirror.`, fix: `unset ${name} (resilient then leaves an index that sends nothing for 2 s while a mirror answers), or accept the wait.` }
      : undefined,
  },
  { names: ['PIP_INDEX_URL', 'PIP_PYPI_URL', 'PIP_NO_INDEX'], note: 'an index choice for pip: one that is not public and not in resilient\'s config is never replaced by a mirror' },
  { names: ['PIP_EXTRA_INDEX_URL', 'PIP_FIND_LINKS'], note: 'extra package sources for pip, on every command: kept as they are (mirrors replace only the main index)' },
  { names: ['PIP_CERT'], note: "pip's CA bundle, as if --cert were on every pip command" },
]

/** One variable that names the registry of an npm-family tool. */
export function registryVariable(tool: string, ...names: string[]): readonly EnvironmentSetting[] {
  return [{ names, note: `a registry choice for ${tool}` }]
}

/** Index, channel or network variables a tool reads (uv docs environment.md, conda and go docs). */
export function networkVariables(tool: string, ...names: string[]): readonly EnvironmentSetting[] {
  return [{ names, note: `an index or network setting for ${tool}` }]
}
