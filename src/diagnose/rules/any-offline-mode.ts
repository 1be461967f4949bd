import { linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// The tool was told to stay off the network (its --offline flag, UV_OFFLINE, PIXI_OFFLINE, conda's offline setting,
// GOPROXY=off, uv's --no-index) and what it needed is not in its cache. Its words name a URL or a registry, yet no
// mirror can help: the next attempt runs offline too. npm: make-fetch-happen's NotCachedError (ENOTCACHED); pnpm:
// ERR_PNPM_NO_OFFLINE_META and ERR_PNPM_NO_OFFLINE_TARBALL; cargo's reminder after a failed resolution; go's module
// lookup; uv's "Network connectivity is disabled" (crates/uv-client/src/error.rs, uv-git, uv-requirements-txt) and
// its --no-index ("making network requests to registries was banned"); rattler's offline middleware and repodata
// gateway, and pixi's help line on every offline failure (crates/pixi_cli/src/offline.rs); conda's OfflineError from
// its session (conda/gateways/connection/session.py).
const OFFLINE = /cache mode is 'only-if-cached' but no cached response is available|\bERR_PNPM_NO_OFFLINE_(?:META|TARBALL)\b|you're using offline mode \(--offline\)|module lookup disabled by GOPROXY=off|[Nn]etwork connectivity is disabled|making network requests to registries was banned|network access is disabled by offline mode|no usable repodata cache for |pixi is running in offline mode|using a remote connection in offline mode/

export const anyOfflineMode = {
  id: 'any-offline-mode',
  category: 'other',
  tools: 'any',
  summary: 'The tool runs offline and what it needs is not in its cache',
  match: failure => {
    const evidence = linesMatching(failure, OFFLINE, 2)
    return evidence.length ? { evidence } : null
  },
  remedy: { kind: 'give-up', hint: "The tool was told to work offline (its --offline flag, or UV_OFFLINE, PIXI_OFFLINE, conda's offline setting, GOPROXY=off, --no-index), and the package is not in its cache; another mirror cannot help. Run once with network access to fill the cache, or drop the offline setting." },
} satisfies Rule
