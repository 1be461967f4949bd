import { listConfigFields } from './fields.js'

/** ` (did you mean "maxAttempts"?)` for a key one or two edits away from a real one. */
export function didYouMean(key: string, path: PropertyKey[]): string {
  const prefix = path.join('.')
  const known = listConfigFields().fields.map(field => field.path.join('.')).filter(name => prefix ? name.startsWith(`${prefix}.`) : true)
    .map(name => name.slice(prefix ? prefix.length + 1 : 0).split('.')[0]!)
  const close = [...new Set(known)].find(name => editDistance(name.toLowerCase(), key.toLowerCase()) <= 2)
  return close ? ` (did you mean "${close}"?)` : ''
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    previous = current
  }
  return previous[b.length]!
}
