import type { NormalizedFailure } from './types.js'

// Wrapper errors lie ("Failed to build", "No solution found", "Failed to extract archive"); the innermost cause
// tells. Chains are printed as:
//   uv (old), cargo:  `Caused by: <cause>` or `Caused by:` with the cause indented below
//   uv, pixi (miette): `├─▶ <cause>` ... `╰─▶ <innermost>` (ASCII: `|-> <cause>` ... `` `-> <innermost>``)
//   (pip's `╰─> [20 lines of output]` is not a chain: it frames a subprocess's output, and the error is above it)
//   Python:            a traceback, then "The above exception was the direct cause of the following exception:"
const LINK = /^(\s*)(?:Caused by:|[├╰└]─▶|\|->|`->)\s?(.*)$/
const PYTHON_CHAINED = /^(?:The above exception was the direct cause of the following exception|During handling of the above exception, another exception occurred):$/
/** The continuation of a link: indented below it, or inside its box (`│   more text`). */
const BOX_CONTINUATION = /^\s*[│|]\s/
const MAX_CONTINUATION_LINES = 40
/** A retrying tool repeats the same chain; the last ones are enough. */
const MAX_CAUSE_LINES = 200

interface Link {
  indent: number
  text: string
  /** Index of the line after the link. */
  next: number
}

function linkAt(lines: readonly string[], index: number): Link | null {
  const match = LINK.exec(lines[index]!)
  return match ? { indent: match[1]!.length, text: match[2]!.trim(), next: index + 1 } : null
}

/** The innermost link of a chain, with the lines that continue it. */
function continuation(lines: readonly string[], link: Link): string[] {
  const segment = link.text ? [link.text] : []
  for (let index = link.next; index < lines.length && index < link.next + MAX_CONTINUATION_LINES; index++) {
    const line = lines[index]!
    const indent = line.length - line.trimStart().length
    if (!line.trim()) continue
    if (linkAt(lines, index) || (indent <= link.indent && !BOX_CONTINUATION.test(line))) break
    segment.push(line.replace(BOX_CONTINUATION, '').trim())
  }
  return segment
}

/**
 * The innermost cause of every chain in the output (uv, pixi, cargo, Python): the lines the diagnosis reads first.
 * Empty when the output has no chain.
 */
export function innermostCauses(failure: NormalizedFailure): string[] {
  const { lines } = failure
  const causes: string[] = []
  let last: Link | null = null
  let previousText = ''
  for (let index = 0; index < lines.length; index++) {
    const link = linkAt(lines, index)
    if (link) {
      last = link
      continue
    }
    const line = lines[index]!
    if (last && !continuesChain(line, last)) {
      causes.push(...continuation(lines, last))
      last = null
    }
    if (PYTHON_CHAINED.test(line.trim()) && previousText) causes.push(previousText)
    if (line.trim()) previousText = line.trim()
  }
  if (last) causes.push(...continuation(lines, last))
  return causes.slice(-MAX_CAUSE_LINES)
}

/** Whether a line between two links still belongs to the chain (a continuation, or cargo's blank separators). */
function continuesChain(line: string, last: Link): boolean {
  if (!line.trim() || BOX_CONTINUATION.test(line)) return true
  return line.length - line.trimStart().length > last.indent
}
