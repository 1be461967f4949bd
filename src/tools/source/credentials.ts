import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { hasCredentials, splitCredentials, type SplitUrl } from '../../redact.js'
import type { CommandLine, SecretsContext } from '../context.js'
import type { ToolAdapter } from '../types.js'
export type { SecretsContext } from '../context.js'
import { withEnv, withFile } from '../argv/command-line.js'


/** Whether a credential (userinfo, a `/t/<token>/` segment) is on the command line, alone or inside an option. */
function onArgv(command: CommandLine): boolean {
  return command.argv.some(arg => arg.split(/[=\s'"]/).some(part => /^[a-z+]+:\/\//i.test(part) && hasCredentials(part)))
}

const fileName = (prefix: string, host: string) => `${prefix}-${createHash('sha256').update(host).digest('hex').slice(0, 8)}`

function readOwn(path: string | undefined): string {
  try {
    return path ? readFileSync(path, 'utf8') : ''
  } catch {
    return ''
  }
}

// Quoted only when it must be: Python's netrc before 3.11 reads `"` as part of a word (shlex wordchars), so a quoted
// token would be sent with its quotes; 3.11+ and curl unquote.
const quoted = (value: string) => /[\s"\\]/.test(value) ? `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"` : value

/**
 * A netrc for this attempt: the user's own (NETRC or ~/.netrc) plus the host's credentials, given as NETRC. pip
 * (requests utils.get_netrc_auth) and uv read it for a URL without userinfo.
 */
export function withNetrc(command: CommandLine, credentials: SplitUrl, { scratch, env }: SecretsContext): CommandLine {
  const { hostname } = new URL(credentials.url)
  const path = join(scratch.path, fileName('netrc', hostname))
  const own = readOwn(env.NETRC ?? (env.HOME ? join(env.HOME, '.netrc') : undefined))
  const content = `${own}${own && !own.endsWith('\n') ? '\n' : ''}machine ${hostname} login ${quoted(credentials.username)} password ${quoted(credentials.password)}\n`
  return withFile(withEnv(command, { NETRC: path }), { path, content })
}

/** Which user npmrc a tool reads, and the variables that name one to it (npm's: npm_config_userconfig, ~/.npmrc). */
export interface UserNpmrc {
  /** The user npmrc the tool would read without resilient, whose settings the attempt's file keeps. */
  own(env: NodeJS.ProcessEnv): string | undefined
  /** The variables that give the attempt's file to the tool, the one it reads first last (all set to the file). */
  variables: readonly string[]
}

export const NPM_USER_NPMRC: UserNpmrc = {
  own: env => Object.entries(env).find(([name]) => name.toLowerCase() === 'npm_config_userconfig')?.[1] ?? (env.HOME ? join(env.HOME, '.npmrc') : undefined),
  variables: ['npm_config_userconfig'],
}

/**
 * An npmrc for this attempt: the user's own user npmrc plus `//host/path/:_auth` for the registry, given as
 * npm_config_userconfig (npm and pnpm ≤10 read it; the project .npmrc still applies on top), or by the variables
 * `user` names.
 */
export function withNpmrc(command: CommandLine, credentials: SplitUrl, { scratch, env }: SecretsContext, user: UserNpmrc = NPM_USER_NPMRC): CommandLine {
  const url = new URL(credentials.url)
  const nerfDart = `//${url.host}${url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`}`
  const path = join(scratch.path, fileName('npmrc', nerfDart))
  const own = readOwn(user.own(env))
  const auth = Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')
  const content = `${own}${own && !own.endsWith('\n') ? '\n' : ''}${nerfDart}:_auth=${auth}\n`
  return withFile(withEnv(command, Object.fromEntries(user.variables.map(name => [name, path]))), { path, content })
}

/** Applies `url` as the attempt's index with its credentials kept off argv (without them when the tool has no way). */
export function applyIndexKeepingSecrets(adapter: ToolAdapter, command: CommandLine, url: string, target: { kind: string }, secrets?: SecretsContext): CommandLine {
  const credentials = splitCredentials(url)
  if (!credentials) return adapter.applyIndex(command, url, target)
  const withUrl = adapter.applyIndex(command, url, target)
  if (!onArgv(withUrl)) return withUrl
  const plain = adapter.applyIndex(command, credentials.url, target)
  return adapter.passCredentials && secrets ? adapter.passCredentials(plain, credentials, secrets) : plain
}

/** Whether this tool can use `url`, which carries credentials, without putting them on its command line. */
export function carriesCredentials(adapter: ToolAdapter, url: string): boolean {
  const probe = { argv: [adapter.name], env: {} }
  if (!onArgv(adapter.applyIndex(probe, url, { kind: 'mirror' }))) return true
  const credentials = splitCredentials(url)
  return Boolean(credentials && adapter.passCredentials && !onArgv(adapter.applyIndex(probe, credentials.url, { kind: 'mirror' })))
}
