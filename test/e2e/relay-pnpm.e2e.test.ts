import { describeRelayedTool } from '../helpers/relay-npm-family.js'

// pnpm through the relay (src/tools/relay/pnpm-relay.ts): packuments point tarballs at the relay, under the index's
// paths, which pnpm-lock.yaml does not record; the plain run is pnpm against the index.
describeRelayedTool({
  tool: 'pnpm',
  install: ['pnpm', 'install'],
  plain: registry => ({ argv: ['pnpm', 'install', `--registry=${registry}`], env: {} }),
  lockfile: 'pnpm-lock.yaml',
  files: 'relay',
  token: index => ({ files: { '.npmrc': `${index.replace(/^http:/, '')}:_authToken=the-person-s-token\n` } }),
})
