/**
 * `text` with what stands between `<!-- name:start -->` and `<!-- name:end -->` replaced by `body` (which ends with a
 * newline): how the README's generated sections are written and checked.
 */
export function withSection(text: string, name: string, body: string): string {
  const start = `<!-- ${name}:start -->`
  const end = `<!-- ${name}:end -->`
  const from = text.indexOf(start)
  const to = text.indexOf(end)
  if (from < 0 || to < from) throw new Error(`README.md has no ${start} … ${end} section`)
  return `${text.slice(0, from + start.length)}\n${body}${text.slice(to)}`
}
