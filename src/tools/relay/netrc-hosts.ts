import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The machines of the netrc a tool reads (NETRC, else ~/.netrc), and the file: the tool sends their credentials
 * itself (pip: requests' get_netrc_auth; go: cmd/go/internal/auth, over https; pixi: rattler's NetRcStorage::from_env). `default` counts for every host (`*`).
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
