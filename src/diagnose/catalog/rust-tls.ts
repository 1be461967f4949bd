import { messages } from './types.js'

// The TLS errors Rust tools chain under reqwest's "client error (Connect)", read here with git: rustls 0.23.43
// (tag v/0.23.43), the stack of uv and of pixi's default build, and native-tls 0.2.14 (tag v0.2.14), which pixi builds
// with `--features native-tls` use (SChannel on Windows). Each is a certificate or handshake failure: never a reason
// to try another mirror, and never the connection failure the wrapper above it names.
const RUSTLS = { repo: 'rustls/rustls', file: 'rustls/src/error.rs (Display of Error and CertificateError)', version: '0.23.43 (v/0.23.43)' }
const NATIVE_TLS = { repo: 'sfackler/rust-native-tls', file: 'src/imp/schannel.rs (TlsConnector::connect, with disable_built_in_roots)', version: '0.2.14 (v0.2.14)' }

const CONNECT = '  ├─▶ error sending request for url ({url})\n  ├─▶ client error (Connect)\n  ╰─▶ '

export const RUSTLS_TLS = messages(RUSTLS, [
  ['any-ssl', `${CONNECT}invalid peer certificate: UnknownIssuer`],
  ['any-ssl', `${CONNECT}invalid peer certificate: certificate not valid for name "{host}"; certificate is only valid for {host}`],
  ['any-ssl', `${CONNECT}invalid peer certificate: certificate expired: verification time 1767225600 (UNIX), but certificate is not valid after 1735689599 (31536001 seconds ago)`],
  ['any-ssl', `${CONNECT}invalid peer certificate: Other(OtherError(UnsupportedCriticalExtension))`],
  ['any-ssl', `${CONNECT}received fatal alert: HandshakeFailure`],
  ['any-ssl', `${CONNECT}peer is incompatible: ServerDoesNotSupportTls12Or13`],
  ['any-ssl', `${CONNECT}peer misbehaved: IllegalMiddleboxChangeCipherSpec`],
  ['any-ssl', `${CONNECT}received corrupt message of type InvalidContentType`],
  ['any-ssl', `${CONNECT}peer sent no certificates`],
])

export const NATIVE_TLS_SCHANNEL = messages(NATIVE_TLS, [
  ['any-ssl', `${CONNECT}unable to find any user-specified roots in the final cert chain`],
])
