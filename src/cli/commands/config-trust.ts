import { readFileSync, realpathSync } from 'node:fs'
import { homedir } from 'node:os'
import { resolve } from 'node:path'
import { findProjectFile, isCodeConfig } from '../../config/project-file.js'
import { redirectingHosts } from '../../config/project-hosts.js'
import { trustFile, trustStoreFile } from '../../config/trust.js'
import { UsageError } from '../../errors.js'
import { printable } from '../../redact.js'

function say(line: string): void {
  process.stderr.write(`${printable(line)}\n`)
}

/**
 * `resilient config trust [path]`: records a project config (the one found from here when no path is given) with
 * its content hash, so that resilient runs its code or follows its hosts while it stays unchanged.
 */
export async function runConfigTrust(path: string | undefined): Promise<number> {
  const env = process.env
  const found = path ? undefined : findProjectFile(process.cwd(), env.HOME || homedir(), () => {})
  if (!path && !found) throw new UsageError('No project config was found from this directory, so there is nothing to trust.', 'Name the file: resilient config trust <path>.')
  let file: string
  let content: string
  try {
    file = realpathSync(resolve(path ?? found!.path))
    content = readFileSync(file, 'utf8')
  } catch (error) {
    throw new UsageError(`${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`, 'Give the path of a project config file.')
  }
  const sha256 = await trustFile(file, content, env)
  say(`Trusted ${file} (sha256 ${sha256.slice(0, 12)}…), recorded in ${trustStoreFile(env)}.`)
  if (isCodeConfig(file)) say('It is code: resilient will run it for commands that talk to an index, until it changes.')
  let hosts: string[] = []
  try {
    hosts = redirectingHosts(JSON.parse(content) as Record<string, unknown>, undefined)
  } catch {
    // YAML or code: the hosts are known only when it is loaded
  }
  if (hosts.length) say(`It sends installs to ${hosts.join(', ')}.`)
  say('If the file changes, resilient stops using it until you trust it again.')
  return 0
}
