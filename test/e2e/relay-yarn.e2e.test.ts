import { describeRelayedTool } from '../helpers/relay-npm-family.js'

// yarn 1 through the relay (src/tools/relay/yarn-relay.ts): packuments keep the index's tarball URLs, which yarn.lock
// records and yarn 1 downloads as written, so only packuments go through the relay; the plain run is yarn 1 against
// the index.
describeRelayedTool({
  tool: 'yarn1',
  install: ['yarn', 'install'],
  plain: registry => ({ argv: ['yarn', 'install', '--registry', registry], env: {} }),
  lockfile: 'yarn.lock',
  files: 'index',
  // yarn 1 sends an unscoped _auth with always-auth to its registry.
  token: index => ({ env: { YARN_REGISTRY: index, npm_config__auth: Buffer.from('person:secret').toString('base64'), npm_config_always_auth: 'true' } }),
})
