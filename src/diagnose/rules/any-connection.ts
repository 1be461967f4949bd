import { hostFacts, linesMatching } from '../evidence.js'
import { withoutProxyFailures } from '../proxy-host.js'
import type { Rule } from '../types.js'

// Lines whose connection words another fact explains: the proxy refused it, the name did not resolve (urllib3's
// NewConnectionError around `[Errno -3] Temporary failure in name resolution`), the archive arrived corrupt.
const EXPLAINED = /proxyconnect tcp|Cannot connect to proxy|Unable to connect to proxy|Tunnel connection failed|Name or service not known|Temporary failure in name resolution|nodename nor servname|getaddrinfo|\bEAI_(?:AGAIN|NONAME|NODATA)\b|appears to be corrupt/

// Resets, refusals, aborts, unreachable networks and truncated bodies, in the words of urllib3/requests, Node,
// libcurl, reqwest (uv, pixi, cargo), Go and yarn; localized Windows messages carry the errno name added by
// normalisation (WinError 10054 → ECONNRESET). poetry 2 gives up with "All attempts to connect to <host> failed."
// (src/poetry/utils/authenticator.py); the exception it chains says more, and the rules of that cause come first.
// urllib3 reading a chunked body that stops short fails in HTTPResponse._update_chunk_length (int(b'', 16)) and
// raises InvalidChunkLength, "Connection broken": a traceback cut after that frame is the same dropped connection.
// conda (conda/gateways/connection/download.py) checks the bytes it streamed against Content-Length itself. Under
// reqwest (uv, pixi): rustls' "peer closed connection without sending TLS close_notify" (a TLS stream cut short,
// rustls/src/conn.rs 0.23.43) and h2's reset of a stream or connection by the server ("stream error received: ...",
// "connection error received: ...", src/error.rs 0.4.15).
const CONNECTION = /Connection reset|\bECONNRESET\b|Connection refused|\bECONNREFUSED\b|Connection aborted|\bECONNABORTED\b|RemoteDisconnected|IncompleteRead|ChunkedEncodingError|ProtocolError|Network is unreachable|\bENETUNREACH\b|\bEHOSTUNREACH\b|No route to host|Connection broken(?! by)|socket hang up|\bError: aborted$|[Cc]onnResetException|\bEPIPE\b|unexpected EOF|connection closed before message completed|error sending request|error trying to connect|client error \(Connect\)|Could not connect, are you offline|NewConnectionError|Failed to establish a new connection|Could(?:n't| not) connect to server|Failure when receiving data from the peer|end of file before message length reached|while trying to fetch \S{1,500}: aborted|network aborted|trouble with your network connection|forcibly closed|actively refused|error decoding response body|Failed sending data to the peer|Transferred a partial file|ConnectionRefused|All attempts to connect to \S{1,253} failed|InvalidChunkLength|in _update_chunk_length$|Downloaded bytes did not match Content-Length|peer closed connection without sending TLS close_notify|(?:stream|connection) error received: /i

export const anyConnection = {
  id: 'any-connection',
  category: 'connection',
  tools: 'any',
  summary: 'The connection to the index was refused, reset or dropped',
  match: failure => {
    const evidence = withoutProxyFailures(failure, linesMatching(failure, CONNECTION).filter(line => !EXPLAINED.test(line)))
    if (!evidence.length) return null
    const facts = hostFacts(evidence)
    return { evidence, facts, summary: facts.host ? `The connection to ${facts.host} was refused, reset or dropped` : undefined }
  },
} satisfies Rule
