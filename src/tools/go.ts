import { go as GO_MIRRORS, GO_UPSTREAM } from '../mirrors/go.js'
import { firstPositional } from './argv/args.js'
import type { IndexChoice, ReadOnlyForms, ToolAdapter, ToolContext } from './types.js'
import { named } from './argv/read-only.js'
import { networkVariables } from './config/environment.js'
import { withEnv } from './argv/command-line.js'
import { classifyVerb } from './argv/verbs.js'
import { hostAndPortOf } from '../url.js'
import { goSetting } from './config/go-env.js'
import { GO_RELAY } from './relay/go-relay.js'

// `go help` and go.dev/ref/mod. `go run` and `go test` execute the user's program; builds may download missing modules.
// `-mod=vendor` builds from the vendor folder only.
const VERBS = { network: new Set(['get', 'install', 'build', 'mod download', 'mod tidy', 'work sync']), local: /^-mod=vendor$/ }
const GROUPS = new Set(['mod', 'work'])
// Read-only: `go env -w`/`-u` write the go env file (go help env); Go's flag package also takes `--w`.
const READ_ONLY = {
  leadingFlags: [],
  commands: [...named(['version', 'help']), { words: ['env'], deny: ['-w*', '--w*', '-u*', '--u*'] }],
} satisfies ReadOnlyForms

const PUBLIC = [GO_UPSTREAM, ...GO_MIRRORS.map(mirror => mirror.url)].map(url => hostAndPortOf(url))

function findUserIndex(context: ToolContext): IndexChoice | null {
  const flags = goSetting('GOFLAGS', context)
  if (flags && /(^|\s)-mod=vendor\b/.test(flags.value)) return { url: 'none', origin: `-mod=vendor (${flags.origin})` }
  const proxy = goSetting('GOPROXY', context)
  if (!proxy) return null
  const entries = proxy.value.split(/[,|]/).map(entry => entry.trim()).filter(Boolean)
  if (entries[0] === 'off') return { url: 'none', origin: `GOPROXY=off (${proxy.origin})` }
  const urls = entries.filter(entry => entry !== 'direct' && entry !== 'off')
  if (!urls.length) return { url: 'direct', origin: `GOPROXY=${proxy.value} (${proxy.origin})` }
  // One private proxy anywhere in the list makes the whole list the user's: a public mirror must never stand in
  // for it, nor be put after it (golang/go#37367: falling through leaks private module paths).
  const privateUrl = urls.find(url => !PUBLIC.includes(hostAndPortOf(url)))
  return { url: privateUrl ?? urls[0]!, origin: proxy.origin }
}

export const go = {
  name: 'go',
  ecosystem: 'go',
  offline: { args: [], env: { GOPROXY: 'off' }, where: 'the Go module cache' },
  environment: networkVariables('go', 'GOPROXY', 'GOPRIVATE', 'GOFLAGS'),
  shimNames: ['go'],
  executables: /^go(\.exe)?$/,
  readOnly: READ_ONLY,
  alternatives: [['go']],
  defaultIndex: GO_UPSTREAM,
  verbs: VERBS,
  classify(args) {
    const verb = firstPositional(args, ['-C'])
    const sub = verb && GROUPS.has(verb.value) ? firstPositional(args.slice(verb.index + 1))?.value : undefined
    return classifyVerb(verb && (sub ? `${verb.value} ${sub}` : verb.value), args, VERBS)
  },
  findUserIndex,
  relay: GO_RELAY,
  // Go takes its proxy from the environment only (no flag); `go env -w` would persist it. `,direct` keeps go's
  // default meaning: fetch from the origin only what the proxy says does not exist (404/410). GOPRIVATE and
  // GONOPROXY are left alone, so private modules still bypass the mirror.
  applyIndex: (command, url) => withEnv(command, { GOPROXY: `${url.replace(/\/+$/, '')},direct` }),
  // The module proxy protocol: <proxy>/<module path>/@v/list, capitals escaped as !lower (go.dev/ref/mod).
  packageUrl: (indexUrl, name) => `${indexUrl.replace(/\/+$/, '')}/${name.replace(/[A-Z]/g, c => `!${c.toLowerCase()}`)}/@v/list`,
  advice: {
    mirror: 'GOPROXY=<mirror-url>,direct go <command>',
    caBundle: 'SSL_CERT_FILE=/path/ca.pem go <command>',
    noCache: 'go clean -modcache, then run again',
    cleanCache: 'go clean -modcache',
    lookUp: 'go list -m -versions <module>',
  },
  verified: 'real',
  forms: '`go get\\|install\\|build\\|mod download\\|mod tidy`',
  testedWith: 'go 1.19',
  mirrorMechanism: '`GOPROXY=<mirror>,direct` in the environment',
} satisfies ToolAdapter
