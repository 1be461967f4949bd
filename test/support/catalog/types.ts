/** Where a tool forms a message: the repository, the file, and the version read. */
export interface MessageSource {
  repo: string
  file: string
  version: string
  /**
   * Set when the file was not read here: the public issue thread whose paste the template was checked against, or
   * the capture of the tool's binary run here (cargo, go).
   */
  checkedAgainst?: string
}

/**
 * A message a tool prints, as its source forms it. `{name}` marks what varies (the names are listed in
 * test/support/catalog/fill.ts); everything else is the tool's own text. The tests fill each template with varied
 * values, decorate it as terminals and CI logs do, and check that `rule` (and no other) claims it.
 */
export interface Message {
  /** The rule that claims this message; `status` when the HTTP status in it decides (401 → any-http-auth ...). */
  rule: string
  template: string
  source: MessageSource
  /** What the tool puts before its error lines (`npm error `, yarn's `error `); the tests add it. */
  prefix?: string
  /** The proxies configured when the tool prints it (`Failure.proxies`): the proxy verdict depends on them. */
  proxies?: readonly string[]
}

/** Shorthand for a catalog file: the rule and template, then the source they share. */
export function messages(source: MessageSource, entries: readonly (readonly [rule: string, template: string])[], prefix?: string, proxies?: readonly string[]): Message[] {
  return entries.map(([rule, template]) => ({ rule, template, source, ...(prefix !== undefined && { prefix }), ...(proxies && { proxies }) }))
}
