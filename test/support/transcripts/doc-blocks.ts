import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The console transcripts of README.md and docs/: each is a fenced block right after a marker line, either
 * `<!-- transcript: <id> -->` (produced by a real run, test/support/transcripts/scenarios.ts, and checked by
 * test/e2e/transcripts.e2e.test.ts) or `<!-- transcript: illustrative -->` (a picture of what a person sees, listed
 * with its reason in ILLUSTRATIVE, the one place that says which are).
 */
export interface DocBlock {
  file: string
  /** The scenario's id, or `illustrative`. */
  id: string
  /** The block's text, between the fences. */
  text: string
  /** 1-based line of the opening fence. */
  line: number
}

const MARKER = /^<!-- transcript: ([\w-]+) -->$/

/** Every marked block of `file` (a path under `root`). */
export function markedBlocks(root: string, file: string): DocBlock[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n')
  const blocks: DocBlock[] = []
  for (let index = 0; index < lines.length; index++) {
    const id = MARKER.exec(lines[index]!)?.[1]
    if (!id) continue
    const open = index + 1
    if (!/^```/.test(lines[open] ?? '')) throw new Error(`${file}:${index + 1}: a transcript marker must stand right before a fenced block`)
    const close = lines.findIndex((line, at) => at > open && line === '```')
    blocks.push({ file, id, text: lines.slice(open + 1, close).join('\n'), line: open + 1 })
  }
  return blocks
}

/**
 * Fenced blocks that look like a transcript of resilient (a `$ resilient` command, or lines resilient prints), with
 * no marker before them: each must be produced by a scenario or listed as illustrative.
 */
export function unmarkedTranscripts(root: string, file: string): number[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n')
  const found: number[] = []
  for (let index = 0; index < lines.length; index++) {
    const fence = /^```(\w*)$/.exec(lines[index]!)
    if (!fence) continue
    const close = lines.findIndex((line, at) => at > index && line === '```')
    const body = lines.slice(index + 1, close)
    const marked = MARKER.test(lines[index - 1] ?? '')
    const output = ['', 'console', 'text'].includes(fence[1]!)
    if (output && !marked && body.some(line => /^\$ resilient\b|^(✖|→|…|✔|■|!|↓) |^::(group|warning|notice|error)::|^# attempt \d/.test(line))) found.push(index + 1)
    index = close < 0 ? lines.length : close
  }
  return found
}

/** `file` with the block marked `id` replaced by `text`. */
export function writeBlock(root: string, file: string, id: string, text: string): void {
  const path = join(root, file)
  const lines = readFileSync(path, 'utf8').split('\n')
  const at = lines.findIndex(line => line === `<!-- transcript: ${id} -->`)
  if (at < 0) throw new Error(`${file} has no <!-- transcript: ${id} --> block`)
  const close = lines.findIndex((line, index) => index > at + 1 && line === '```')
  lines.splice(at + 2, close - at - 2, ...text.split('\n'))
  writeFileSync(path, lines.join('\n'))
}

/**
 * What may differ between two real runs of one scenario, made the same for comparing them: durations and speeds,
 * the addresses Python prints of its objects. Ports, temporary paths and the home folder are already stable
 * (scenarios.ts maps them).
 */
export function comparable(text: string): string {
  return text
    .replace(/\b\d+(\.\d+)? ?(ms|s|kB\/s|MB\/s)\b/g, 'N $2')
    .replace(/\b0x[0-9a-f]{6,}\b/g, '0x…')
    .trimEnd()
}
