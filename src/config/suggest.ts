import { closestName } from '../closest-name.js'
import { listConfigFields } from './fields.js'

/** ` (did you mean "maxAttempts"?)` for a key one or two edits away from a real one. */
export function didYouMean(key: string, path: PropertyKey[]): string {
  const prefix = path.join('.')
  const known = listConfigFields().fields.map(field => field.path.join('.')).filter(name => prefix ? name.startsWith(`${prefix}.`) : true)
    .map(name => name.slice(prefix ? prefix.length + 1 : 0).split('.')[0]!)
  const close = closestName(key, [...new Set(known)])
  return close ? ` (did you mean "${close}"?)` : ''
}
