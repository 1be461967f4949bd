import { hostFacts, linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// Certificate failures need the person (a CA bundle, a trusted host); uv even retries them as transient
// (astral-sh/uv#16474), burning the budget. Never retried here.
const SSL = /CERTIFICATE_VERIFY_FAILED|certificate verify failed|SSLError|SSLCertVerificationError|CondaSSLError|UNABLE_TO_(?:GET_ISSUER_CERT|VERIFY_LEAF_SIGNATURE)|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|CERT_HAS_EXPIRED|ERR_TLS_CERT_ALTNAME_INVALID|invalid peer certificate|UnknownIssuer|self[- ]signed certificate|certificate has expired|unable to get local issuer certificate|hostname mismatch|doesn't match|WRONG_VERSION_NUMBER|TLS handshake|SSL routines|tlsv1 alert|SSL: DECRYPTION_FAILED|SSL peer certificate|schannel/i

export const anySsl = {
  id: 'any-ssl',
  category: 'ssl',
  tools: 'any',
  summary: 'A TLS certificate could not be verified, or the TLS handshake failed',
  match: failure => {
    const evidence = linesMatching(failure, SSL)
    return evidence.length ? { evidence, facts: hostFacts(evidence) } : null
  },
} satisfies Rule
