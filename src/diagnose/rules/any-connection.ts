import { hostFacts, linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

const CONNECTION = /Connection reset|ECONNRESET|Connection refused|ECONNREFUSED|Connection aborted|ECONNABORTED|RemoteDisconnected|IncompleteRead|ProtocolError|Network is unreachable|ENETUNREACH|EHOSTUNREACH|No route to host|Errno 10[134]\b|WinError 100(?:54|60|61)|connection closed|Connection broken|socket hang up|EPIPE|unexpected EOF|HTTP 000 CONNECTION FAILED|error sending request|error trying to connect|connection error|NewConnectionError|Failed to establish a new connection|bytes remaining on stream|end of file before message length reached/i

export const anyConnection = {
  id: 'any-connection',
  category: 'connection',
  tools: 'any',
  summary: 'The connection to the index was refused, reset or dropped',
  match: failure => {
    const evidence = linesMatching(failure, CONNECTION)
    if (!evidence.length) return null
    const facts = hostFacts(evidence)
    return { evidence, facts, summary: facts.host ? `The connection to ${facts.host} was refused, reset or dropped` : undefined }
  },
} satisfies Rule
