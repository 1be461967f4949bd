/** Argument scanning shared by adapters: option values in `--flag value`, `--flag=value` and `-fVALUE` forms. */

export interface OptionSpec {
  /** Long names, `--index-url`; prefixes of at least `minPrefix` characters also match when the tool's parser allows it. */
  long: string[]
  short?: string[]
  /** Parsers such as optparse, argparse and nopt accept any unique prefix (`--ind` for `--index-url`). */
  minPrefix?: number
  takesValue: boolean
}

export interface FoundOption {
  name: string
  value: string | undefined
  index: number
}

function matchesLong(arg: string, spec: OptionSpec): string | undefined {
  const name = arg.split('=')[0]!
  for (const long of spec.long) {
    if (name === long) return long
    if (spec.minPrefix && name.length >= spec.minPrefix && long.startsWith(name)) return long
  }
  return undefined
}

/** Every occurrence of an option in args, stopping at `--`. */
export function findOptions(args: readonly string[], spec: OptionSpec): FoundOption[] {
  const found: FoundOption[] = []
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!
    if (arg === '--') break
    if (arg.startsWith('--')) {
      const long = matchesLong(arg, spec)
      if (!long) continue
      if (!spec.takesValue) found.push({ name: long, value: undefined, index })
      else if (arg.includes('=')) found.push({ name: long, value: arg.slice(arg.indexOf('=') + 1), index })
      else found.push({ name: long, value: args[++index], index: index - 1 })
      continue
    }
    for (const short of spec.short ?? []) {
      if (arg === short) {
        found.push({ name: short, value: spec.takesValue ? args[++index] : undefined, index: spec.takesValue ? index - 1 : index })
      } else if (spec.takesValue && arg.startsWith(short) && !arg.startsWith('--')) {
        found.push({ name: short, value: arg.slice(short.length), index })
      }
    }
  }
  return found
}

/** The first positional argument, skipping options (and the values of those listed as taking one). */
export function firstPositional(args: readonly string[], optionsWithValue: readonly string[] = []): { value: string; index: number } | undefined {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!
    if (arg === '--') return undefined
    if (!arg.startsWith('-') || arg === '-') return { value: arg, index }
    if (!arg.includes('=') && optionsWithValue.includes(arg)) index++
  }
  return undefined
}
