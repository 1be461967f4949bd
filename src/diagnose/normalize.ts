import type { Failure, NormalizedFailure } from './types.js'

// Linear-time patterns only (no nested quantifiers): the whole engine must survive 10 MB of adversarial input.
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g
const PREFIXES = [
  /^npm (?:ERR!|error|warn|WARN|notice|verb|http)\s?/,
  /^(?:error|warning|critical|info|debug) +libmamba\s?/,
  /^YN\d{4}: (?:[│└├┌─] ?)*/,
  /^ERR_PNPM_\w+\s?/,
  /^#\d+ \d+\.\d+ /, // docker buildkit: `#10 18.23 `
  /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z? ?/, // GitHub Actions timestamps
  /^\[\d\d:\d\d:\d\d(?:\.\d+)?\] ?/,
  /^\s*(?:error|warning): /i,
]

/** Strips what differs between terminals, CI systems and tool versions, keeping the words the rules read. */
export function normalizeOutput(output: string): string {
  let text = output
  if (!text.includes('\n') && text.includes('\\n')) text = text.replace(/\\r\\n|\\n/g, '\n').replace(/\\"/g, '"')
  text = text.replace(ANSI, '')
  // A progress bar redraws a line with \r: keep what was drawn last.
  text = text.split('\n').map(line => {
    const trimmed = line.endsWith('\r') ? line.slice(0, -1) : line
    const cut = trimmed.lastIndexOf('\r')
    return cut >= 0 ? trimmed.slice(cut + 1) : trimmed
  }).join('\n')
  const lines = text.split('\n').map(line => {
    let current = line
    for (let pass = 0; pass < 3; pass++) {
      const before = current
      for (const prefix of PREFIXES) current = current.replace(prefix, '')
      if (current === before) break
    }
    return current.trimEnd()
  })
  return joinHardWraps(lines).join('\n')
}

/**
 * Pasted logs are often hard-wrapped at 80 columns, splitting URLs and words. A line of exactly 79-80 characters
 * followed by a line with no leading space is joined to it.
 */
function joinHardWraps(lines: string[]): string[] {
  const joined: string[] = []
  for (const line of lines) {
    const previous = joined.at(-1)
    if (previous !== undefined && previous.length >= 79 && previous.length <= 80 && line !== '' && !/^\s/.test(line)) {
      joined[joined.length - 1] = previous + line
    } else {
      joined.push(line)
    }
  }
  return joined
}

export function normalizeFailure(failure: Failure): NormalizedFailure {
  const text = normalizeOutput(failure.output)
  return { ...failure, text, lines: text.split('\n') }
}
