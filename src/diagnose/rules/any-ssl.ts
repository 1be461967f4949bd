import { hostFacts, linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// pip up to 9 wrapped every TLS failure in "Could not fetch URL <url>: There was a problem confirming the ssl certificate:
// <reason> - skipping" (pip/index.py), whatever the reason. Certificate failures need the person (a CA bundle, a trusted host); uv even retries them as transient
// (astral-sh/uv#16474), burning the budget. Never retried here. A server refusing an old TLS version (PyPI's 2018
// "Brownout of Legacy TLS", sent as a 403) is a TLS problem too, not an access one; an SSLError that says "timed out"
// is a timeout. rustls (uv, pixi) and native-tls (pixi's native-tls build) word the handshake in their own terms:
// "received fatal alert: ...", "peer is incompatible: ...", "unable to find any user-specified roots in the final cert
// chain" (test/support/catalog/rust-tls.ts).
const SSL = /CERTIFICATE_VERIFY_FAILED|certificate verify failed|SSLError(?![^\n]{0,80}(?:timed out|ETIMEDOUT))|SSL_connect\b|SSL_ERROR_SYSCALL|SSLCertVerificationError|SSLZeroReturnError|CondaSSLError|SSL certificate problem|UNABLE_TO_(?:GET_ISSUER_CERT|VERIFY_LEAF_SIGNATURE)|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|CERT_HAS_EXPIRED|ERR_TLS_CERT_ALTNAME_INVALID|invalid peer certificate|UnknownIssuer|self[- ]signed certificate|certificate has expired|unable to get local issuer certificate|hostname '[^'\n]{1,253}' doesn't match|does not match certificate's altnames|WRONG_VERSION_NUMBER|(?:SSL|TLS) connect error|SSL peer certificate|CERT_NOT_YET_VALID|ERR_SSL_|tlsv1 alert|sslv3 alert|SSL routines|SSL module is not available|problem confirming the ssl certificate|x509: certificate|Legacy TLS|TLSV1_ALERT|schannel: |SEC_E_|received fatal alert|peer is incompatible|peer misbehaved|received corrupt message|peer sent no certificates|unable to find any user-specified roots/i

// conda saying its Python has no OpenSSL never checked a certificate (conda-ssl-module-missing); pip without an ssl
// module is labelled ssl (test/fixtures/output/pip/py-157-ssl.txt).
const NO_SSL_MODULE = /OpenSSL appears to be unavailable/
// A handshake that timed out is a timeout: `SSLError("bad handshake: SysCallError(10060, 'WSAETIMEDOUT')")` (urllib3's
// pyOpenSSL wrapper on Windows) also prints a bare `[SSLError]` heading (poetry), which names no cause of its own.
const TIMED_OUT_HANDSHAKE = /SSLError[^\n]{0,120}(?:timed out|ETIMEDOUT)/

export const anySsl = {
  id: 'any-ssl',
  category: 'ssl',
  tools: 'any',
  summary: 'A TLS certificate could not be verified, or the TLS handshake failed',
  match: failure => {
    const timedOut = TIMED_OUT_HANDSHAKE.test(failure.text)
    const evidence = linesMatching(failure, SSL).filter(line => !NO_SSL_MODULE.test(line) && !(timedOut && /SSLError/.test(line)))
    if (!evidence.length) return null
    const facts = hostFacts(evidence)
    return { evidence, facts, summary: facts.host ? `The TLS certificate of ${facts.host} could not be verified, or the handshake failed` : undefined }
  },
} satisfies Rule
