import { LAUNCH_CONTEXT_SH } from '../exec/launch-context.js'

/** First line after the shebang of every shim: how resilient recognises its own files (never overwrite others). */
export const SHIM_MARKER = '# resilient-shim v1'
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
}

/**
 * A POSIX sh shim. Starting it costs one sh and one node process. Like bin/resilient, it first reads what Node
 * cannot see once started: the caller's ignored signals and extra descriptors (src/exec/launch-context.ts). Inside a resilient run (RESILIENT_ACTIVE, set for
 * every child) or with RESILIENT_NO_SHIM=1 it runs the real tool directly without starting node, so a pip that runs
 * pip is never wrapped twice and can never loop. The PATH walk skips every directory holding a shim manifest, and
 * any file that is itself a shim (one copied elsewhere without its manifest).
 */
export function renderShim({ name, node, cli }: ShimTarget): string {
  return `#!/bin/sh
${SHIM_MARKER}: ${name}
# Written by \`resilient shim install\`; \`resilient shim uninstall\` removes it. See docs/shims.md.
if [ -z "\${RESILIENT_ACTIVE:-}\${RESILIENT_NO_SHIM:-}" ]; then
${LAUNCH_CONTEXT_SH}  node=${quote(node)}
  [ -x "$node" ] || node=node
  exec "$node" ${quote(cli)} shim run ${quote(name)} "$@"
fi
set -f
IFS=:
for dir in $PATH; do
  [ -n "$dir" ] || continue
  [ -f "$dir/${SHIM_MANIFEST}" ] && continue
  if [ -f "$dir/${name}" ] && [ -x "$dir/${name}" ]; then
    # A shim copied without its manifest is still a shim, never the real tool: running it would loop.
    case "$(sed -n 2p "$dir/${name}" 2>/dev/null)" in "${SHIM_MARKER}"*) continue ;; esac
    unset IFS
    exec "$dir/${name}" "$@"
  fi
done
echo "resilient shim: the real ${name} was not found on PATH outside resilient's shim directories." >&2
exit 127
`
}
