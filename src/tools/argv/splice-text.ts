/** A replacement of `text.slice(start, end)`; edits never overlap. */
export interface TextEdit { start: number; end: number; replacement: string }

/** `text` with every edit applied, in one pass: a lockfile's other bytes stay exactly as they were. */
export function spliceText(text: string, edits: readonly TextEdit[]): string {
  const pieces: string[] = []
  let copied = 0
  for (const { start, end, replacement } of [...edits].sort((a, b) => a.start - b.start)) {
    pieces.push(text.slice(copied, start), replacement)
    copied = end
  }
  return pieces.join('') + text.slice(copied)
}
