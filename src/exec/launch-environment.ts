/** A POSIX shell name: what dash and ash keep of the environment they were given. */
const SHELL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/**
 * The variables the launcher's shell dropped, put back into `env` from the environment as the launcher got it
 * (`encoded`: /proc/self/environ in base64, see LAUNCH_CONTEXT_SH): only names that are not shell names and that
 * `env` lacks, so a variable the shell kept (or changed: PWD) stays as it is. Returns the names restored.
 */
export function restoreDroppedVariables(env: NodeJS.ProcessEnv, encoded: string | undefined): string[] {
  if (!encoded) return []
  const restored: string[] = []
  for (const entry of Buffer.from(encoded, 'base64').toString('utf8').split('\0')) {
    const at = entry.indexOf('=')
    if (at <= 0) continue
    const name = entry.slice(0, at)
    if (SHELL_NAME.test(name) || Object.hasOwn(env, name)) continue
    env[name] = entry.slice(at + 1)
    restored.push(name)
  }
  return restored
}
