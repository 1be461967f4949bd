// Rules match one line at a time, but testing a pattern once on the whole text is far cheaper when it matches
// nothing (most rules). On the whole text a pattern could span lines: `^\s*` would swallow blank lines and turn
// quadratic. These helpers rewrite a pattern so that it can never consume a newline, which is exact: a single line
// never contains one.

// Every whitespace character but \n, for use inside a character class.
const SPACE_NOT_NEWLINE = '\\t\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff'

/** The source of `pattern` with `\s` and negated classes kept off newlines. */
export function withinLine(source: string): string {
  let out = ''
  let inClass = false
  for (let index = 0; index < source.length; index++) {
    const char = source[index]!
    if (char === '\\') {
      const next = source[index + 1] ?? ''
      index++
      if (next === 's') out += inClass ? SPACE_NOT_NEWLINE : '[^\\S\\n]'
      else out += char + next
      continue
    }
    if (!inClass && char === '[') {
      inClass = true
      const negated = source[index + 1] === '^'
      out += negated ? '[^\\n' : '['
      if (negated) index++
      continue
    }
    if (inClass && char === ']') inClass = false
    out += char
  }
  return out
}

const ANYWHERE = new WeakMap<RegExp, RegExp>()

/** Whether `pattern` matches some line of `text`, in one scan: `^`/`$` at line starts and ends, never across a newline. */
export function mayMatch(text: string, pattern: RegExp): boolean {
  let anywhere = ANYWHERE.get(pattern)
  if (!anywhere) {
    anywhere = new RegExp(withinLine(pattern.source), `${pattern.flags.replace(/[gym]/g, '')}m`)
    ANYWHERE.set(pattern, anywhere)
  }
  return anywhere.test(text)
}
