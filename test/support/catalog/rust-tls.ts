import { messages } from './types.js'

// The TLS errors Rust tools chain under reqwest's "client error (Connect)", read here with git: rustls 0.23.43
// (tag v/0.23.43), the stack of uv and of pixi's default build, and native-tls 0.2.14 (tag v0.2.14), which pixi builds
// with `--features native-tls` use (SChannel on Windows). Each is a certificate or handshake failure: never a reason
// to try another mirror, and never the connection failure the wrapper above it names.
const RUSTLS = { repo: 'rustls/rustls', file: 'rustls/src/error.rs (Display of Error and CertificateError)', version: '0.23.43 (v/0.23.43)' }
// A TLS stream that ends without close_notify (rustls/src/conn.rs), and the server resetting an HTTP/2 stream
// (hyperium/h2 src/error.rs, src/frame/reason.rs at v0.4.15, uv's Cargo.lock; hyper 1.x words it "http2 error").
const RUSTLS_EOF = { repo: 'rustls/rustls', file: 'rustls/src/conn.rs (UNEXPECTED_EOF_MESSAGE)', version: '0.23.43 (v/0.23.43)' }
const H2 = { repo: 'hyperium/h2', file: 'src/error.rs, src/frame/reason.rs', version: '0.4.15 (v0.4.15)' }
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

export const RUST_STREAM_ENDS = [
  ...messages(RUSTLS_EOF, [['any-connection', '  ╰─▶ peer closed connection without sending TLS close_notify: https://docs.rs/rustls/latest/rustls/manual/_03_howto/index.html#unexpected-eof']]),
  ...messages(H2, [
    ['any-connection', '  ├─▶ client error (SendRequest)\n  ╰─▶ http2 error: stream error received: refused stream before processing any application logic'],
    ['any-connection', '  ╰─▶ http2 error: connection error received: unspecific protocol error detected'],
  ]),
]
