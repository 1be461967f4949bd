/**
 * Text from outside (tool output in evidence, argv, cwd, config values, file names) made safe to print: escape
 * sequences are removed until none is left (one pass is not enough: `\x1b[\x1b[2J2J` rebuilds a screen clear once
 * the inner sequence is gone), and every other control byte is shown escaped (`\x1b`), so nothing can move the
 * cursor, set the clipboard (OSC 52), retitle the window, or start a new line in a CI log.
 */
// CSI (ESC [ … final), OSC (ESC ] … BEL or ST), DCS/SOS/PM/APC (ESC P|X|^|_ … ST), and two-byte ESC sequences
// (`ESC c` resets the terminal). The 8-bit forms (0x9b CSI, 0x9d OSC) likewise. Bounded, so linear in the length.
const SEQUENCE = /(?:\x1b\[|\x9b)[0-?]{0,64}[ -/]{0,16}[@-~]|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]{0,4096}(?:\x07|\x1b\\|\x9c)|\x1b[ -~]/g
const SGR = /^(?:\x1b\[[0-9;]{0,32}m)$/
// C0 controls but tab and newline, DEL, and C1 controls.
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g

/** Removes escape sequences until none is left (a nested one cannot rebuild itself); other bytes stay. */
export function stripSequences(text: string, keepColor = false): string {
  for (let pass = 0; pass < 64; pass++) {
    const next = text.replace(SEQUENCE, sequence => keepColor && SGR.test(sequence) ? sequence : '')
    if (next === text) return text
    text = next
  }
  return text
}

const hex = (char: string) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`

export interface PrintableOptions {
  /** Keep newlines (a multi-line message); otherwise `\n` is escaped too and the text stays on one line. */
  multiline?: boolean
  /** Keep colour (SGR) sequences, which resilient's own reporter adds; no other sequence survives. */
  keepColor?: boolean
  /** Show every escape sequence escaped rather than removing it: an argument is printed as it was given. */
  escapeOnly?: boolean
}

export function printable(text: string, options: PrintableOptions = {}): string {
  if (!/[\x00-\x08\x0a-\x1f\x7f-\x9f]/.test(text)) return text
  const stripped = options.escapeOnly ? text : stripSequences(text, options.keepColor === true)
  const escaped = stripped.replace(CONTROL, char => char === '\x1b' && options.keepColor ? char : hex(char))
  // Any ESC left after stripping is not the start of a kept colour sequence: show it.
  const colourSafe = options.keepColor ? escaped.replace(/\x1b(?!\[[0-9;]{0,32}m)/g, hex) : escaped
  return options.multiline ? colourSafe : colourSafe.replace(/\n/g, '\\n')
}

// The runner reads a line as a workflow command when, trimmed of leading white space (.NET's, U+0085 included), it
// starts with `::` (actions/runner ActionCommand.TryParseV2); a line ends at LF, CR or CRLF (StreamReader.ReadLine).
// The older `##[command]` form counts wherever it stands in the line (TryParse).
const COMMAND_AT_LINE_START = /(^|[\r\n])((?:(?![\r\n])[\s\u0085])*):(?=:)/g
const OLD_COMMAND = /##\[/g

/**
 * Text resilient prints under GitHub Actions, with no line able to start a workflow command it did not mean: the
 * first colon of a leading `::` becomes `%3A` and `##[` becomes `##%5B`, as the workflow-command escapes spell them.
 * Lines resilient means as commands (`::group::`, `::add-mask::`) are written apart and never pass through here.
 */
export function defuseWorkflowCommands(text: string): string {
  return text.replace(COMMAND_AT_LINE_START, '$1$2%3A').replace(OLD_COMMAND, '##%5B')
}

/**
 * GitHub Actions reads a line that starts with `::` as a workflow command: every line resilient prints there has
 * `%`, CR and LF escaped as the workflow-command rules require (`%25`, `%0D`, `%0A`), and a leading `::` defused,
 * so no value can start one.
 */
export function escapeWorkflowData(line: string): string {
  return defuseWorkflowCommands(line.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'))
}
