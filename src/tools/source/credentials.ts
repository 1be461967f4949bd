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

/**
 * An npmrc for this attempt: the user's own user npmrc plus `//host/path/:_auth` for the registry, given as
 * npm_config_userconfig (npm and pnpm read it; the project .npmrc still applies on top).
 */
export function withNpmrc(command: CommandLine, credentials: SplitUrl, { scratch, env }: SecretsContext): CommandLine {
  const url = new URL(credentials.url)
  const nerfDart = `//${url.host}${url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`}`
  const path = join(scratch.path, fileName('npmrc', nerfDart))
  const userconfig = Object.entries(env).find(([name]) => name.toLowerCase() === 'npm_config_userconfig')?.[1]
  const own = readOwn(userconfig ?? (env.HOME ? join(env.HOME, '.npmrc') : undefined))
  const auth = Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')
  const content = `${own}${own && !own.endsWith('\n') ? '\n' : ''}${nerfDart}:_auth=${auth}\n`
  return withFile(withEnv(command, { npm_config_userconfig: path }), { path, content })
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

/**
 * The machines of the netrc a tool reads (NETRC, else ~/.netrc), each with the file: pip sends their credentials itself
 * (requests' get_netrc_auth), and so does pixi (rattler's NetRcStorage::from_env).
 */
export function netrcHosts(env: NodeJS.ProcessEnv, home: string): Record<string, string> {
  const file = env.NETRC || join(home, '.netrc')
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    return {}
  }
  const words = text.split(/\s+/)
  const hosts: Record<string, string> = {}
  words.forEach((word, at) => {
    if (word === 'machine' && words[at + 1]) hosts[words[at + 1]!.toLowerCase()] = file
    if (word === 'default') hosts['*'] = file
  })
  return hosts
}
