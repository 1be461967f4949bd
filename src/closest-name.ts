/** Edit distance with adjacent transpositions (optimal string alignment): `nmp` is one edit from `npm`. */
export function editDistance(a: string, b: string): number {
  let before: number[] = []
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) current[j] = Math.min(current[j]!, before[j - 2]! + 1)
    }
    before = previous
    previous = current
  }
  return previous[b.length]!
}

/**
 * The name of `names` closest to a mistyped `word` (case aside), when it is at most `maxEdits` away (one for a word
 * of three letters or fewer, where two edits reach almost anything: `ls` is not `go`): for "did you mean".
 */
export function closestName(word: string, names: readonly string[], maxEdits = word.length <= 3 ? 1 : 2): string | undefined {
  let best: { name: string; distance: number } | undefined
  for (const name of names) {
    const distance = editDistance(word.toLowerCase(), name.toLowerCase())
    if (distance <= maxEdits && (!best || distance < best.distance)) best = { name, distance }
  }
  return best?.name
}
