import { join, resolve } from 'node:path'
import type { Diagnosis } from '../diagnose/types.js'
import { registerSecrets } from '../redact.js'
import type { Fix, Source } from '../retry/types.js'
import type { Invocation } from '../tools/parse-invocation.js'
import type { SecretsContext } from '../tools/source/credentials.js'
import type { CommandLine } from '../tools/types.js'
import { which } from '../tools/argv/which.js'

type Question = { diagnosis: Diagnosis; source: Source; command: CommandLine }

/** The failures a person can fix with an answer; for the others there is nothing to ask. */
const ASKABLE = new Set<Diagnosis['category']>(['proxy', 'http_auth', 'ssl', 'externally_managed', 'permission'])

function proxyEnv(url: string): Record<string, string> {
  return { HTTPS_PROXY: url, HTTP_PROXY: url, https_proxy: url, http_proxy: url }
}

/**
 * Asks the person for a fix when resilient cannot find one itself. Only built when someone can answer (a terminal,
 * not CI, no --no-input, no --yes); every answer applies to this run only and nothing is saved. A token is read
 * without echo, registered as a secret (redacted everywhere) and never written anywhere.
 */
export function createAsker(invocation: Invocation, write: (line: string) => void, secrets: SecretsContext) {
  const fixes = invocation.adapter.personFixes
  return async ({ diagnosis, source }: Question): Promise<Fix | undefined> => {
    if (!ASKABLE.has(diagnosis.category)) return undefined
    const prompts = await import('@inquirer/prompts')
    write(`\n? resilient cannot fix this by itself: ${diagnosis.summary}`)
    for (const line of diagnosis.evidence.slice(0, 3)) write(`  │ ${line}`)
    switch (diagnosis.category) {
      case 'proxy': {
        const url = (await prompts.input({ message: 'Proxy URL to use for this run (e.g. http://proxy.example:3128), empty to stop:' })).trim()
        if (!url) return undefined
        if (!/^(https?|socks5h?):\/\/[^\s]+$/.test(url)) {
          write('  That is not a proxy URL (http://host:port); stopping.')
          return undefined
        }
        registerSecrets([new URL(url).password])
        return { description: `use the proxy ${new URL(url).host} for this run`, env: proxyEnv(url) }
      }
      case 'http_auth': {
        const index = source.indexUrl
        if (!index || source.kind !== 'private' || !fixes?.withCredentials) return undefined
        const username = (await prompts.input({ message: `User name for ${new URL(index).host} (a token's user, e.g. __token__):`, default: '__token__' })).trim()
        // It goes to the tool in a 0600 netrc in the run's private directory, never on its command line.
        const token = await prompts.password({ message: 'Token or password (not shown, not saved, used for this run only):', mask: false })
        if (!token) return undefined
        registerSecrets([token, encodeURIComponent(token)])
        return { description: `credentials for ${new URL(index).host} (this run only)`, rewrite: cmd => fixes.withCredentials!(cmd, index, username, token, secrets) }
      }
      case 'ssl': {
        const host = diagnosis.facts.host
        if (!host || !fixes?.trustHost) return undefined
        const trust = await prompts.confirm({ default: false,
          message: `Trust ${host} without verifying its certificate, for this run only? Anyone on the network path could then tamper with downloads (pinned hashes are still checked).` })
        return trust ? { description: `trust ${host} without TLS verification (this run only)`, rewrite: cmd => fixes.trustHost!(cmd, host) } : undefined
      }
      case 'externally_managed':
      case 'permission': {
        const choices = [
          ...(invocation.adapter.moduleLaunch ? [{ name: 'Create a virtual environment in ./.venv and install into it', value: 'venv' }] : []),
          ...(diagnosis.category === 'permission' && fixes?.userInstall ? [{ name: 'Install for your user only (--user)', value: 'user' }] : []),
          { name: 'Stop', value: 'stop' },
        ]
        const choice = await prompts.select({ message: 'What should resilient do?', choices, default: 'stop' })
        if (choice === 'user') return { description: 'install for the current user only (--user)', rewrite: cmd => fixes!.userInstall!(cmd) }
        if (choice === 'venv') return createVenv(invocation, write, secrets.env)
        return undefined
      }
      default:
        return undefined
    }
  }
}

async function createVenv(invocation: Invocation, write: (line: string) => void, env: NodeJS.ProcessEnv): Promise<Fix | undefined> {
  const module = invocation.adapter.moduleLaunch!.module
  const interpreter = invocation.launcher.length > 1 ? invocation.launcher[0]! : ['python3', 'python'].find(name => which(name, env))
  if (!interpreter) return undefined
  const dir = resolve('.venv')
  write(`  creating ${dir} with ${interpreter} -m venv ...`)
  const { execa } = await import('execa')
  const created = await execa(interpreter, ['-m', 'venv', dir], { reject: false, stdio: 'inherit' })
  if (created.exitCode !== 0) {
    write('  the virtual environment could not be created; stopping.')
    return undefined
  }
  const python = join(dir, process.platform === 'win32' ? 'Scripts/python.exe' : 'bin/python')
  const launcherLength = invocation.launcher.length
  return {
    description: `install into the new virtual environment ${dir} (activate it with: . .venv/bin/activate)`,
    rewrite: cmd => ({ ...cmd, argv: [python, '-m', module, ...cmd.argv.slice(launcherLength)] }),
  }
}
