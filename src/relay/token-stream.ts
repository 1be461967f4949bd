import { StringDecoder } from 'node:string_decoder'

/**
 * What a streaming rewrite looks for: where a token may start (`start`, a global regular expression), and, from
 * such a start, where it ends and what replaces it. Everything else passes through byte for byte.
 */
export interface TokenRule {
  start: RegExp
  /** The longest text `start` can match: that much is held back at a chunk's end, in case a start is cut in two. */
  startLength: number
  /**
   * The token beginning at `from` (its start matched up to `after`): its end and replacement; `incomplete` when the
   * text ends inside it and more is coming; undefined when it is not a token after all.
   */
  token(text: string, from: number, after: number, final: boolean): { end: number; replacement: string } | 'incomplete' | undefined
}

/** One token's rewrite over a whole text (a buffered page). */
export function rewriteText(text: string, rule: TokenRule): string {
  return scan(text, rule, true).output
}

function scan(text: string, rule: TokenRule, final: boolean): { output: string; rest: number } {
  const pattern = new RegExp(rule.start.source, rule.start.flags.includes('g') ? rule.start.flags : `${rule.start.flags}g`)
  let output = ''
  let cursor = 0
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const found = rule.token(text, match.index, match.index + match[0].length, final)
    if (found === 'incomplete') return { output: output + text.slice(cursor, match.index), rest: match.index }
    if (!found) {
      pattern.lastIndex = match.index + 1
      continue
    }
    output += text.slice(cursor, match.index) + found.replacement
    cursor = found.end
    pattern.lastIndex = found.end
  }
  if (final) return { output: output + text.slice(cursor), rest: text.length }
  // A start may be cut by the chunk's end: its first characters wait for the next chunk.
  const rest = Math.max(cursor, text.length - rule.startLength)
  return { output: output + text.slice(cursor, rest), rest }
}

/**
 * Rewrites tokens of UTF-8 text fed in chunks, with no stream machinery of its own (the relay drives it from the
 * body's events: Node's pipeline costs about a tenth of a millisecond per request, on every packument). Memory stays
 * at one chunk plus the longest token (`maxToken`; a longer one is passed on unchanged rather than held without bound).
 */
export class TokenRewriter {
  private readonly decoder = new StringDecoder('utf8')
  private pending = ''

  constructor(private readonly rule: TokenRule, private readonly maxToken = 64 * 1024) {}

  /** The text that can be released after `chunk`. */
  feed(chunk: Buffer): string {
    return this.advance(this.pending + this.decoder.write(chunk), false)
  }

  /** The rest, once the body has ended. */
  end(): string {
    return this.advance(this.pending + this.decoder.end(), true)
  }

  private advance(text: string, final: boolean): string {
    let { output, rest } = scan(text, this.rule, final)
    // An incomplete token longer than any real one: pass its start on as it is.
    while (!final && text.length - rest > this.maxToken) {
      const next = scan(text.slice(rest + 1), this.rule, false)
      output += text[rest]! + next.output
      rest = rest + 1 + next.rest
    }
    this.pending = text.slice(rest)
    return output
  }
}
