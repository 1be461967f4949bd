import { describeRelayedTool } from '../helpers/relay-npm-family.js'

// bun through the relay (src/tools/relay/bun-relay.ts): packuments keep the index's tarball URLs, which bun.lock
// records for any registry but registry.npmjs.org (these local ones included), so bun fetches tarballs from the index
// itself here; the plain run is bun against the index.
describeRelayedTool({
  tool: 'bun',
  install: ['bun', 'install'],
  plain: registry => ({ argv: ['bun', 'install', `--registry=${registry}`], env: {} }),
  lockfile: 'bun.lock',
  files: 'index',
  // bun sends NPM_CONFIG_TOKEN to its default registry, here the index.
  token: index => ({ env: { BUN_CONFIG_REGISTRY: index, NPM_CONFIG_TOKEN: 'the-person-s-token' } }),
})
