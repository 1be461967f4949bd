import { firstCapture, linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// urllib3 wraps the real cause: `ProxyError('Cannot connect to proxy.', ConnectionResetError(...))` is a proxy
// problem, not a network one; so is a 407, a failed CONNECT tunnel, and conda's "error in your proxy configuration".
// reqwest (uv, pixi) words its tunnel failures itself: 0.12's src/connect.rs ("unsuccessful tunnel", "proxy
// authentication required", "unexpected eof while tunneling"), 0.13's through hyper-util's
// client/legacy/connect/proxy/tunnel.rs ("tunnel error: unsuccessful"). A proxy address the tool cannot use is the
// configuration's fault too: requests (pip, conda) without PySocks for a socks5:// proxy ("Missing dependencies for
// SOCKS support", conda: "pysocks is not installed"), a malformed proxy URL (requests' InvalidProxyURL), a scheme
// reqwest does not know (src/proxy.rs).
const PROXY = /ProxyError|Cannot connect to proxy|Unable to connect to proxy|Tunnel connection failed|\b407 Proxy Authentication|Proxy Authentication Required|\bE407\b|error in your proxy configuration|CONNECT tunnel failed|Could(?: not|n't) resolve proxy|proxyconnect tcp|Proxy CONNECT aborted|tunneling socket could not be established|Received HTTP code 407 from proxy|unsuccessful tunnel|proxy authentication required|unexpected eof while tunneling|\btunnel error: |Missing dependencies for SOCKS support|pysocks is not installed|Please check proxy URL|unknown proxy scheme/

export const anyProxy = {
  id: 'any-proxy',
  category: 'proxy',
  tools: 'any',
  summary: 'The HTTP proxy refused or failed the request',
  match: failure => {
    const evidence = linesMatching(failure, PROXY)
    if (!evidence.length) return null
    // The host of the URL on these lines is the index; only the proxy's own address names the failing host.
    const proxy = firstCapture(evidence, /proxyconnect tcp: dial tcp ([\w.-]{1,253}):\d+|resolve proxy:? ([\w.-]{1,253})|cause=connect E[A-Z]+ ([\w.-]{1,253}):\d+/)
    return { evidence, facts: { host: proxy, viaProxy: true, hostRole: 'proxy' },
      summary: proxy ? `The HTTP proxy ${proxy} refused or failed the request` : undefined }
  },
} satisfies Rule
