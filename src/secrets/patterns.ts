/**
 * What a credential looks like, by position and by known format: the value of a URL's userinfo, a token path segment,
 * a token query parameter, an Authorization header, npm's `_authToken`, cargo's `token=`, a `--password` flag, a
 * token with a vendor prefix. Never a word merely because of a variable's name.
 *
 * Every pattern is `(context)(secret)`: group 1 stays visible, group 2 is masked. Linear time: each starts
 * on a literal, and every repetition that may fail is bounded, so no start position costs more than a few hundred
 * steps however long the line (a megabyte of spaces after `Authorization:` included).
 */
// A query parameter is a credential by the shape of its name, not by a list: any name that contains one of these
// words, in any case, with any `-`, `_` or `.` around it (`api_token`, `private_token`, `access-token`, `X-Auth`,
// `X-Amz-Signature`, `client_secret`). A harmless parameter caught by it (`author=`) only loses its value in messages.
const SECRET_PARAM = '[A-Za-z0-9._~-]{0,64}(?:token|key|secret|passw(?:or)?d|auth|sig|credential)[A-Za-z0-9._~-]{0,64}'
const SECRET_HEADER = 'x-jfrog-art-api|private-token|job-token|deploy-token|x-api-key|api-key|x-auth-token'
const SPACE = '[ \\t]{0,8}'
const VALUE = '[^\\s\'",]{1,4096}'

export const CREDENTIAL_PATTERNS: readonly RegExp[] = [
  // userinfo of a URL of any scheme, up to the last `@` of the authority (`pa@ss` and `p'ss` passwords included)
  /(:\/\/)([^\s/?#"<>`]{1,512})(?=@)/g,
  new RegExp(`([?&;](?:${SECRET_PARAM})=)([^&\\s'"#;]{1,4096})`, 'gi'),
  // anaconda.org token channels (`/t/<token>/`) and registries that carry the token as the first path segment
  /(\/t\/)([A-Za-z0-9._~-]{6,256})(?=\/)/g,
  /(\/\/(?:dl\.cloudsmith\.io|(?:pypi|npm|npm-proxy|repo)\.fury\.io)\/)((?!public\/|basic\/)[A-Za-z0-9_-]{8,256})(?=\/)/gi,
  // Authorization headers (the scheme word stays visible) and bearer tokens alone
  new RegExp(`(\\b(?:Proxy-)?Authorization["']?${SPACE}[:=]${SPACE}["']?(?:(?:Bearer|Basic|token|Digest|Negotiate)[ \\t]{1,8})?)(${VALUE})`, 'gi'),
  /(\bBearer[ \t]{1,8})([A-Za-z0-9._~+/=-]{8,4096})/g,
  new RegExp(`(\\b(?:${SECRET_HEADER})["']?${SPACE}:${SPACE}["']?)(${VALUE})`, 'gi'),
  // npm `//host/:_authToken=`, `_auth`, `_password` (after `:`, `_`, a quote, a space or a line start, so that
  // `http_auth: host` is no secret); yarn berry `npmAuthToken`/`npmAuthIdent`
  new RegExp(`((?:^|[\\s:"'_])_(?:authToken|auth|password)["']?${SPACE}[=:]${SPACE}["']?)(${VALUE})`, 'gm'),
  new RegExp(`(\\bnpmAuth(?:Token|Ident)["']?${SPACE}[=:]${SPACE}["']?)(${VALUE})`, 'g'),
  // cargo: `registries.<name>.token="…"`, `registry.token`, CARGO_REGISTRIES_<NAME>_TOKEN, CARGO_REGISTRY_TOKEN
  new RegExp(`(\\bregistr(?:y|ies\\.[A-Za-z0-9_-]{1,64})\\.token${SPACE}=${SPACE}\\\\?["']?)([^\\s'"\\\\]{1,4096})`, 'g'),
  /(\bCARGO_REGISTR(?:Y|IES_[A-Z0-9_]{1,64})_TOKEN=)([^\s'"]{1,4096})/g,
  // a variable whose name ends in a credential word (not AUTH_TOKEN_TTL=3600 or PASSWORD_MIN_LENGTH=12)
  /(\b[A-Za-z][A-Za-z0-9]{0,32}(?:_[A-Za-z0-9]{1,32}){0,6}_(?:TOKEN|PASSWORD|PASSWD|SECRET|API_KEY|APIKEY|CREDENTIALS?)=)((?![0-9]{1,12}\b)[^\s'"&]{1,4096})/g,
  /("(?:password|passwd|token|_authToken|authToken|npmAuthToken|npmAuthIdent|apiKey|api_key|secret|client_secret)"[ \t]{0,8}:[ \t]{0,8}")([^"]{1,4096})/g,
  // `--password x`, `--db-password=x`, `--token x`, `--client-secret x` (not `--token-file <path>`)
  /((?:^|\s)--(?:[A-Za-z0-9]{1,24}-){0,3}(?:password|passwd|token|secret)(?:=|[ \t]{1,8})['"]?)([^\s'"]{1,4096})/gi,
  // known token formats
  /()(\bghp_[A-Za-z0-9]{20,255})/g,
  /()(\bgithub_pat_[A-Za-z0-9_]{20,255})/g,
  /()(\bgh[ousr]_[A-Za-z0-9]{20,255})/g,
  /()(\bgl(?:pat|dt|ptt|rt|oas|cbt)-[A-Za-z0-9_-]{16,255})/g,
  /()(\bpypi-[A-Za-z0-9_-]{16,1024})/g,
  /()(\bnpm_[A-Za-z0-9]{30,255})/g,
  /()(\bsk-[A-Za-z0-9_-]{16,255})/g,
  /()(\bhf_[A-Za-z0-9]{30,255})/g,
  /()(\bxox[abprs]-[A-Za-z0-9-]{10,255})/g,
  /()(\bAIza[0-9A-Za-z_-]{35})\b/g,
  /()(\b(?:AKIA|ASIA)[A-Z0-9]{16})\b/g,
  /()(\beyJ[A-Za-z0-9_-]{8,2048}\.eyJ[A-Za-z0-9_-]{8,2048}\.[A-Za-z0-9_-]{8,2048})/g,
]

/** The index of the URL-userinfo pattern: its secret's password part is registered on its own too. */
export const USERINFO_PATTERN = CREDENTIAL_PATTERNS[0]!

const BEGIN = /-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----/g
const END = /-----END [A-Z ]{0,40}PRIVATE KEY-----/g

/** Masks the body of each complete private-key block, BEGIN to END; lines around it, and a BEGIN without END, stay. */
export function maskPrivateKeys(text: string, mask: string): string {
  if (!text.includes('PRIVATE KEY-----')) return text
  let result = ''
  let from = 0
  BEGIN.lastIndex = 0
  for (let begin = BEGIN.exec(text); begin; begin = BEGIN.exec(text)) {
    END.lastIndex = begin.index + begin[0].length
    const end = END.exec(text)
    if (!end) break
    result += `${text.slice(from, begin.index)}${mask}`
    from = end.index + end[0].length
    BEGIN.lastIndex = from
  }
  return result + text.slice(from)
}
