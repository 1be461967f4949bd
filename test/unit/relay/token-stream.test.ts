import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { rewriteText, TokenRewriter, type TokenRule } from '../../../src/relay/token-stream.js'

// Replaces every {{word}} with WORD; a token is complete at its closing braces.
const upper: TokenRule = {
  start: /\{\{/g,
  startLength: 2,
  token(text, from, after, final) {
    const close = text.indexOf('}}', after)
    if (close < 0) return final ? undefined : 'incomplete'
    return { end: close + 2, replacement: text.slice(after, close).toUpperCase() }
  },
}

function streamed(input: string, cuts: number[], maxToken?: number): string {
  const bytes = Buffer.from(input)
  const points = [...new Set(cuts.map(cut => cut % (bytes.length + 1)))].sort((a, b) => a - b)
  const chunks = [0, ...points, bytes.length].slice(1).map((end, i, all) => bytes.subarray(i ? all[i - 1] : 0, end))
  const rewriter = new TokenRewriter(upper, maxToken)
  return chunks.map(chunk => rewriter.feed(chunk)).join('') + rewriter.end()
}

describe('a streaming token rewrite', () => {
  it('gives what the whole text gives, wherever the chunks are cut (multi-byte characters included)', async () => {
    await fc.assert(fc.asyncProperty(fc.array(fc.oneof(fc.constantFrom('{{ab}}', '{{', '}}', '{', 'é', '€', ' x ')), { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 8 }), async (parts, cuts) => {
      const input = parts.join('')
      expect(streamed(input, cuts)).toBe(rewriteText(input, upper))
    }), { numRuns: 300 })
  })

  it('passes an unterminated token on unchanged rather than holding it without bound', async () => {
    const input = `{{${'a'.repeat(5000)}`
    expect(streamed(input, [10, 100, 2000, 4000], 1000)).toBe(input)
  })

  it('rewrites tokens and leaves the rest byte for byte', () => {
    expect(rewriteText('a {{b}} c {{d}}', upper)).toBe('a B c D')
  })
})
