import { LAUNCH_CONTEXT_SH } from '../exec/launch-context.js'
import type { ReadOnlyForms } from '../tools/types.js'
import { readOnlyFunction, readOnlySubroutine } from './read-only-script.js'

/** First line after the shebang of every shim (sh: `# `, cmd: `rem `): how resilient recognises its own files. */
export const SHIM_MARKER = 'resilient-shim v2'
/** Shims of every version resilient wrote (v1 had no read-only fast path): its own, to overwrite or remove. */
export const SHIM_MARKER_LINE = /^(# |rem )resilient-shim v\d+/
/** A file in every shim directory, listing its shims; a directory holding it is skipped when looking for a real tool. */
export const SHIM_MANIFEST = '.resilient-shims'

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`
}

export interface ShimTarget {
  /** The executable name (`pip`). */
  name: string
  /** Absolute path of node when the shim was written; `node` on PATH is the fallback if it moves (nvm). */
  node: string
  /** Absolute path of resilient's bin script. */
  cli: string
  /** The resilient that wrote it: `resilient doctor` says when the shims are older than the one installed. */
  resilientVersion: string
  /** The tool's read-only invocations, run without starting Node (ToolAdapter.readOnly). */
  readOnly?: ReadOnlyForms
  /** The shebang's interpreter (src/shims/install.ts shimShell); /bin/sh by default. */
  shell?: string
}

/**
 * A POSIX sh shim. A read-only invocation (`pip --version`, `npm ls`) costs one sh start: it `exec`s the real tool,
 * so its output, exit status, signals, descriptors and broken pipes are the tool's own. Anything else costs one sh
 * and one node start (`resilient shim run`); like bin/resilient, the shim first reads what Node cannot see once
 * started: the caller's ignored signals and extra descriptors (src/exec/launch-context.ts). Inside a resilient run
 * (RESILIENT_ACTIVE, set for every child) or with RESILIENT_NO_SHIM=1 it runs the real tool directly too, so a pip
 * that runs pip is never wrapped twice and can never loop. The PATH walk skips every directory holding a shim
 * manifest, and any file that is itself a shim (one copied elsewhere without its manifest).
 */
export function renderShim({ name, node, cli, resilientVersion, readOnly, shell = '/bin/sh' }: ShimTarget): string {
  const fastPath = readOnly ? `${readOnlyFunction(readOnly)}\n` : ''
  return `#!${shell}
# ${SHIM_MARKER}: ${name}
# Written by \`resilient shim install\` (resilient ${resilientVersion}); \`resilient shim uninstall\` removes it. See docs/shims.md.
${fastPath}if [ -z "\${RESILIENT_ACTIVE:-}\${RESILIENT_NO_SHIM:-}" ]${readOnly ? ' && ! read_only "$@"' : ''}; then
  node=${quote(node)}
  [ -x "$node" ] || node=$(command -v node) || node=
  if [ -f ${quote(cli)} ] && [ -n "$node" ]; then
${LAUNCH_CONTEXT_SH}    exec "$node" ${quote(cli)} shim run ${quote(name)} "$@"
  fi
  # resilient (or the node it runs on) was removed with its shims still on PATH: the real tool runs, as without them.
  shims=\${0%/*}
  if [ -f ${quote(cli)} ]; then gone='node is not found'; else gone='resilient is no longer installed here'; fi
  echo "resilient shim: $gone: running the real ${name}. To remove the shims: rm -r '$shims', and the PATH line naming it in your shell profile." >&2
fi
set -f
IFS=:
denied=
# As bash's command search (findcmd.c) and resilient's own: an empty entry is the working directory (the extra ':'
# keeps a trailing one, which field splitting would drop), and a file without execute permission is passed over
# but, when nothing else is found, is what the shell complains about, with 126.
search=$PATH:
for dir in $search; do
  [ -n "$dir" ] || dir=.
  [ -f "$dir/${SHIM_MANIFEST}" ] && continue
  [ -f "$dir/${name}" ] || continue
  if [ -x "$dir/${name}" ]; then
    # A shim copied without its manifest is still a shim, never the real tool: running it would loop.
    case "$(sed -n 2p "$dir/${name}" 2>/dev/null)" in "# resilient-shim v"*) continue ;; esac
    unset IFS
    exec "$dir/${name}" "$@"
  fi
  denied=\${denied:-$dir/${name}}
done
if [ -n "$denied" ]; then
  echo "resilient shim: $denied: Permission denied (the file is not executable)." >&2
  exit 126
fi
echo "resilient shim: the real ${name} was not found on PATH outside resilient's shim directories." >&2
exit 127
`
}

/**
 * The Windows form, `<name>.cmd`. cmd.exe has no exec: a real tool that is itself a batch file is started without
 * `call`, which hands it the rest of the run, so its exit status is the shim's; an .exe returns and the shim ends
 * with its status. Read-only calls never start Node (commands with a deny list go through resilient: cmd has no
 * patterns to check them with).
 */
export function renderCmdShim({ name, node, cli, resilientVersion, readOnly }: ShimTarget): string {
  const lines = [
    '@echo off',
    `rem ${SHIM_MARKER}: ${name}`,
    `rem Written by \`resilient shim install\` (resilient ${resilientVersion}); \`resilient shim uninstall\` removes it. See docs/shims.md.`,
    'setlocal DisableDelayedExpansion',
    'if defined RESILIENT_ACTIVE goto real',
    'if defined RESILIENT_NO_SHIM goto real',
    ...(readOnly ? ['call :read_only %*', 'if not errorlevel 1 goto real'] : []),
    `if not exist "${cli}" goto gone`,
    `set "RESILIENT_NODE=${node}"`,
    'if not exist "%RESILIENT_NODE%" set "RESILIENT_NODE=node"',
    `endlocal & "%RESILIENT_NODE%" "${cli}" shim run ${name} %*`,
    'exit /b',
    '',
    ':gone',
    `echo resilient shim: resilient is no longer installed here: running the real ${name}. To remove the shims: delete %~dp0 and its PATH entry. 1>&2`,
    '',
    ':real',
    `for %%D in ("%PATH:;=" "%") do if not "%%~D"=="" if not exist "%%~D\\${SHIM_MANIFEST}" for %%E in (%PATHEXT%) do if exist "%%~D\\${name}%%E" (`,
    `  set "RESILIENT_REAL=%%~D\\${name}%%E"`,
    '  goto run',
    ')',
    `echo resilient shim: the real ${name} was not found on PATH outside resilient's shim directories. 1>&2`,
    'exit /b 9009',
    '',
    ':run',
    'endlocal & "%RESILIENT_REAL%" %*',
    'exit /b',
    ...(readOnly ? ['', readOnlySubroutine(readOnly)] : []),
  ]
  return `${lines.join('\r\n')}\r\n`
}
