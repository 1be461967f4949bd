/** Argument scanning shared by adapters: option values in `--flag value`, `--flag=value` and `-fVALUE` forms. */

export interface OptionSpec {
  /** Long names, `--index-url`; prefixes of at least `minPrefix` characters also match when the tool's parser allows it. */
  long: string[]
  short?: string[]
  /** Parsers such as optparse, argparse and nopt accept any unique prefix (`--ind` for `--index-url`). */
  minPrefix?: number
  takesValue: boolean
  /**
   * nopt (npm, pnpm) strips every leading dash before it looks a name up, so `-registry`, `-reg` and `---registry`
   * are `--registry` (nopt lib/nopt-lib.js `arg.replace(/^-+/, '')`, checked with `npm config get registry`).
   */
  anyDashes?: boolean
  /**
   * The letters of this parser's short options that take a value. optparse (pip), argparse (conda) and clap (uv)
   * read a cluster `-qiURL` or `-qi URL` as `-q -i URL`: letters before the first value-taking one are flags, and
   * whatever follows it (or the next argument) is its value.
   */
  clusterValueLetters?: string
}

export interface FoundOption {
  name: string
  value: string | undefined
  index: number
}

function matchesLong(name: string, spec: OptionSpec): string | undefined {
  for (const long of spec.long) {
    if (name === long) return long
    if (spec.minPrefix && name.length >= spec.minPrefix && long.startsWith(name)) return long
  }
  return undefined
}

/** `-qiURL` → the value of `-i` when `i` is one of spec.short: the letters before it are flags without a value. */
function fromCluster(arg: string, spec: OptionSpec): { name: string; attached: string } | undefined {
  for (let at = 1; at < arg.length; at++) {
    const letter = arg[at]!
    if (!spec.clusterValueLetters!.includes(letter)) continue
    const name = `-${letter}`
    return spec.short?.includes(name) ? { name, attached: arg.slice(at + 1) } : undefined
  }
  return undefined
}

/** Every occurrence of an option in args, stopping at `--`. */
export function findOptions(args: readonly string[], spec: OptionSpec): FoundOption[] {
  const found: FoundOption[] = []
  const take = (name: string, attached: string | undefined, index: number): number => {
    if (!spec.takesValue) found.push({ name, value: undefined, index })
    else if (attached !== undefined) found.push({ name, value: attached, index })
    else {
      found.push({ name, value: args[index + 1], index })
      return index + 1
    }
    return index
  }
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!
    if (arg === '--') break
    const isLong = arg.startsWith('--') || (spec.anyDashes === true && /^-[^-]{2,}/.test(arg))
    if (isLong) {
      const name = `--${arg.replace(/^-+/, '').split('=')[0]!}`
      const long = matchesLong(spec.anyDashes ? name : arg.split('=')[0]!, spec)
      if (long) index = take(long, arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : undefined, index)
      continue
    }
    if (!arg.startsWith('-') || arg === '-') continue
    if (spec.clusterValueLetters) {
      const cluster = fromCluster(arg, spec)
      if (cluster) index = take(cluster.name, cluster.attached === '' ? undefined : cluster.attached, index)
      continue
    }
    for (const short of spec.short ?? []) {
      if (arg === short) index = take(short, undefined, index)
      else if (spec.takesValue && arg.startsWith(short)) found.push({ name: short, value: arg.slice(short.length), index })
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
