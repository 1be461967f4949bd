import { StringDecoder } from 'node:string_decoder'

/**
 * A conda `repodata.json` read as it streams past, for the one thing the relay needs of it: each package's
 * `sha256`, under `packages` (`.tar.bz2`) and `packages.conda` (`.conda`), and `info.base_url` (CEP-15: where the
 * packages are, when not beside the repodata). A repodata file is hundreds of MB (conda-forge linux-64); it is never
 * held whole or parsed into objects: memory is the few strings being read at the top three levels, each bounded.
 *
 * A JSON lexer reduced to what that takes: strings (escapes honoured), object and array nesting, keys. Numbers,
 * booleans and null are skipped; input that is not JSON yields no digests rather than an error (the tool judges it).
 */
export interface RepodataFindings {
  /** A package file name and its published sha256 (64 hex digits). */
  package(filename: string, sha256: string): void
  /** `info.base_url`, when the repodata names one. */
  baseUrl(url: string): void
}

// Keys and values read at the top three levels are short (file names, digests, URLs): longer ones are cut here.
const LONGEST = 4096
const PACKAGE_TABLES = new Set(['packages', 'packages.conda'])

export class RepodataScanner {
  private readonly decoder = new StringDecoder('utf8')
  /** `{` or `[` per open container. */
  private readonly stack: string[] = []
  /** The key at each open object level (index = level - 1). */
  private readonly keys: string[] = []
  private expectingKey = false
  private inString = false
  private escaped = false
  private collecting = false
  private text = ''

  constructor(private readonly findings: RepodataFindings) {}

  feed(chunk: Buffer): void {
    this.scan(this.decoder.write(chunk))
  }

  end(): void {
    this.scan(this.decoder.end())
  }

  private scan(text: string): void {
    let at = 0
    while (at < text.length) {
      if (this.inString) {
        at = this.readString(text, at)
        continue
      }
      const char = text[at++]!
      if (char === '"') {
        this.inString = true
        // Only keys at the top three levels, and the two values the relay reads, are kept; the rest is skipped.
        this.collecting = this.expectingKey ? this.stack.length <= 3 : this.wanted()
        this.text = ''
      } else if (char === '{') {
        this.stack.push('{')
        this.expectingKey = true
      } else if (char === '[') {
        this.stack.push('[')
        this.expectingKey = false
      } else if (char === '}' || char === ']') {
        this.stack.pop()
        this.keys.length = Math.min(this.keys.length, this.stack.length)
        this.expectingKey = false
      } else if (char === ',') {
        this.expectingKey = this.stack.at(-1) === '{'
      }
    }
  }

  /** Reads string content from `at` to its closing quote (or the chunk's end); returns where scanning goes on. */
  private readString(text: string, at: number): number {
    // A backslash that ended the last chunk escapes this one's first character, which then escapes nothing.
    const floor = this.escaped ? at + 1 : at
    this.escaped = false
    let from = floor
    for (;;) {
      const quote = text.indexOf('"', from)
      if (quote < 0) {
        if (this.collecting) this.append(text.slice(at))
        this.escaped = backslashesBefore(text, text.length, floor) % 2 === 1
        return text.length
      }
      // A quote after an odd run of backslashes is part of the string.
      if (backslashesBefore(text, quote, floor) % 2 === 1) {
        from = quote + 1
        continue
      }
      if (this.collecting) this.append(text.slice(at, quote))
      this.inString = false
      this.stringEnded(this.collecting ? unescape(this.text) : '')
      return quote + 1
    }
  }

  /** Whether the value that starts now is one the relay reads: a package's sha256, or info.base_url. */
  private wanted(): boolean {
    const [table, second, third] = this.keys
    const depth = this.stack.length
    return (depth === 3 && third === 'sha256' && PACKAGE_TABLES.has(table!)) || (depth === 2 && table === 'info' && second === 'base_url')
  }

  private append(part: string): void {
    if (this.text.length < LONGEST) this.text += part.slice(0, LONGEST - this.text.length)
  }

  private stringEnded(value: string): void {
    const depth = this.stack.length
    if (this.expectingKey) {
      this.keys[depth - 1] = value
      this.keys.length = depth
      this.expectingKey = false
      return
    }
    if (!this.collecting) return
    if (depth === 3 && /^[0-9a-f]{64}$/i.test(value)) this.findings.package(this.keys[1]!, value)
    else if (depth === 2) this.findings.baseUrl(value)
  }
}

/** How many backslashes stand right before `end`, not looking before `start` (an escape carried over is counted apart). */
function backslashesBefore(text: string, end: number, start: number): number {
  let count = 0
  while (end - count - 1 >= start && text.charCodeAt(end - count - 1) === 92) count++
  return count
}

/** A JSON string's content with its escapes resolved (a value that is not valid JSON text comes back as it is). */
function unescape(raw: string): string {
  if (!raw.includes('\\')) return raw
  try {
    return JSON.parse(`"${raw}"`) as string
  } catch {
    return raw
  }
}
