import { describeRelayedTool } from '../helpers/relay-npm-family.js'

// yarn berry through the relay (src/tools/relay/yarn-berry-relay.ts): packuments point tarballs at the relay, under
// the index's conventional paths, which yarn.lock does not record; the plain run is berry against the index.
describeRelayedTool({
  tool: 'berry',
  install: ['yarn', 'install'],
  plain: registry => ({ argv: ['yarn', 'install'], env: { YARN_NPM_REGISTRY_SERVER: registry.replace(/\/$/, ''), YARN_UNSAFE_HTTP_WHITELIST: '127.0.0.1' } }),
  lockfile: 'yarn.lock',
  files: 'relay',
  env: { YARN_ENABLE_TELEMETRY: '0', YARN_NODE_LINKER: 'node-modules', YARN_ENABLE_GLOBAL_CACHE: 'false' },
  // berry sends a top-level npmAuthToken to whatever registry it is pointed at (scoped packages always; @acme/util here).
  token: () => ({ env: { YARN_NPM_AUTH_TOKEN: 'the-person-s-token' } }),
})
