import { dirname, isAbsolute, resolve } from 'node:path'
import { findOptions, type OptionSpec } from '../argv/args.js'
import { PIP_INDEX_FLAGS, type IndexFlags } from '../argv/python-index-flags.js'
import { readRegularFile } from './regular-file.js'

/** An index option in a requirements file: `--index-url <value>`, or `--no-index` (`none`). */
export interface RequirementIndexLine {
  /** As written: `--ind`, `-i`, `--no-index`. */
  option: string
  value: string | undefined
  none: boolean
  origin: string
}

/** The options of one line (pip req_file.py splits a line's options as shlex does; a comment ends the line). */
function optionsOf(line: string): string[] {
  const words = line.replace(/(^|\s)#.*$/, '').trim().split(/\s+/)
  return words[0]?.startsWith('-') ? words : []
}

function indexOptions(words: readonly string[], flags: IndexFlags, origin: string): RequirementIndexLine[] {
  const index = findOptions(words, flags.index).map(found => ({ option: found.name, value: found.value, none: false, origin, at: found.index }))
  const none = findOptions(words, flags.noIndex).map(found => ({ option: found.name, value: undefined, none: true, origin, at: found.index }))
  return [...index, ...none].sort((a, b) => a.at - b.at).map(({ at: _, ...line }) => line)
}

/**
 * What `read` finds in each line's options of a requirement file and the files it nests (`-r`/`-c`, resolved from
 * the file's own folder), each file once: pip and uv read a requirement file's options as command options.
 */
function walkRequirementFiles<T>(file: string, cwd: string, nested: IndexFlags['nested'], read: (words: readonly string[], origin: string) => T[], seen = new Set<string>()): T[] {
  const path = isAbsolute(file) ? file : resolve(cwd, file)
  if (seen.has(path)) return []
  seen.add(path)
  const text = readRegularFile(path)
  if (text === undefined) return []
  return text.split(/\r?\n/).flatMap((line, number) => {
    const words = optionsOf(line)
    const inner = findOptions(words, nested).flatMap(found => found.value ? walkRequirementFiles(found.value, dirname(path), nested, read, seen) : [])
    return [...inner, ...read(words, `${path}:${number + 1}`)]
  })
}

/**
 * Index options inside requirement files, in one tool's spelling, following nested `-r`/`-c` (pip and uv read them as
 * command options: the last one replaces the index list, whatever the command line says, pip req_file.py).
 */
export function readRequirementIndexOptions(file: string, cwd: string, flags: IndexFlags = PIP_INDEX_FLAGS): RequirementIndexLine[] {
  return walkRequirementFiles(file, cwd, flags.nested, (words, origin) => indexOptions(words, flags, origin))
}

/** The values of `options` in requirement files and those they nest: `--extra-index-url`, `--find-links` lines. */
export function readRequirementOptionValues(file: string, cwd: string, options: readonly OptionSpec[], nested: IndexFlags['nested'] = PIP_INDEX_FLAGS.nested): { value: string; origin: string }[] {
  return walkRequirementFiles(file, cwd, nested, (words, origin) => options.flatMap(spec => findOptions(words, spec).flatMap(found => found.value ? [{ value: found.value, origin }] : [])))
}

/** The index the requirement files choose: the last index option in them. */
export function requirementFilesIndex(lines: readonly RequirementIndexLine[]): { url: string; origin: string } | undefined {
  const line = lines.at(-1)
  return line && { url: line.none ? 'none' : line.value ?? '', origin: line.origin }
}

/**
 * Why a retry must not reuse a requirements stream (`-r <(...)`, `-r /dev/stdin`) that resilient could not read before
 * the first attempt: when what the tool read from it chooses the index, as a file's --index-url replaces the command
 * line's (pip req_file.py), a mirror given on the command line would be pointless or wrong. pip's spellings: the
 * widest of the family.
 */
export function streamedRequirementsChooseIndex(text: string): string | undefined {
  const line = text.split(/\r?\n/).flatMap(line => indexOptions(optionsOf(line), PIP_INDEX_FLAGS, 'the stream'))[0]
  return line ? `the requirements it read from a stream choose their own index (${line.option}), which resilient could not see before the first attempt and does not replace` : undefined
}
