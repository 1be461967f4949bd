import { parseSignalMask } from './signals.js'

/**
 * What the launcher (bin/resilient, a POSIX sh script) saw before Node started, which Node itself can no longer see:
 * it resets inherited signal dispositions and marks inherited descriptors close-on-exec at start-up.
 */
export interface LaunchContext {
  /** Signals the caller ignored (`nohup`, `trap '' INT`): the tool gets them ignored too. */
  ignoredSignals: ReadonlySet<NodeJS.Signals>
  /** Descriptors above 2 the caller passed on (`3>file`, make's jobserver pipes): passed on to the tool. */
  inheritedFds: readonly number[]
}

/** The variables the launcher sets; the CLI entry reads them once and removes them, so no child sees them. */
export const LAUNCH_VARIABLES = { signals: 'RESILIENT_LAUNCH_SIGIGN', fds: 'RESILIENT_LAUNCH_FDS', environment: 'RESILIENT_LAUNCH_ENVIRON', extraCaCerts: 'RESILIENT_LAUNCH_EXTRA_CA_CERTS' } as const

/**
 * The POSIX sh lines that read the launch context from /proc and export it, the same in bin/resilient and in every
 * shim (a test keeps them equal). O_CLOEXEC (02000000) in a descriptor's flags marks the shell's own descriptors.
 * A POSIX sh other than bash (dash, ash) drops the variables whose names are not shell names
 * (`npm_config_@corp:registry`, `npm_config_//host/:_authToken`, `BASH_FUNC_f%%`) from what it passes on: the
 * environment as it came (the shell's own /proc/$$/environ, read before it execs Node) is handed over in base64, and
 * resilient restores what was dropped (src/exec/launch-environment.ts). Past what one variable may hold, nothing.
 * NODE_EXTRA_CA_CERTS, which Node would parse at start whether resilient makes a TLS connection or not, is handed
 * over under another name, for resilient to put back for its children and to read itself when it needs it
 * (src/own-trust.ts).
 */
export const LAUNCH_CONTEXT_SH = `if [ -z "\${BASH_VERSION:-}" ] && [ -r /proc/self/environ ]; then
  RESILIENT_LAUNCH_ENVIRON=$(base64 < /proc/$$/environ 2>/dev/null)
  [ \${#RESILIENT_LAUNCH_ENVIRON} -le 120000 ] || RESILIENT_LAUNCH_ENVIRON=
  export RESILIENT_LAUNCH_ENVIRON
fi
if [ -r /proc/self/status ]; then
  while read -r key value; do
    if [ "$key" = SigIgn: ]; then RESILIENT_LAUNCH_SIGIGN=$value; export RESILIENT_LAUNCH_SIGIGN; break; fi
  done < /proc/self/status
  RESILIENT_LAUNCH_FDS=
  for fd in /proc/self/fd/*; do
    fd=\${fd##*/}
    case $fd in 0|1|2) continue ;; esac
    [ -r "/proc/self/fdinfo/$fd" ] || continue
    flags=
    { read -r _ _; read -r _ flags; } < "/proc/self/fdinfo/$fd"
    # O_CLOEXEC (02000000) marks the shell's own descriptors: not passed on.
    case $flags in *[2367]??????) ;; *) RESILIENT_LAUNCH_FDS="$RESILIENT_LAUNCH_FDS $fd" ;; esac
  done
  export RESILIENT_LAUNCH_FDS
fi
if [ -n "\${NODE_EXTRA_CA_CERTS+set}" ]; then
  RESILIENT_LAUNCH_EXTRA_CA_CERTS=$NODE_EXTRA_CA_CERTS
  export RESILIENT_LAUNCH_EXTRA_CA_CERTS
  unset NODE_EXTRA_CA_CERTS
fi
`

let context: LaunchContext = { ignoredSignals: new Set(), inheritedFds: [] }

export function readLaunchContext(env: NodeJS.ProcessEnv): LaunchContext {
  const fds = (env[LAUNCH_VARIABLES.fds] ?? '').split(/\s+/).filter(fd => /^\d+$/.test(fd)).map(Number).filter(fd => fd > 2)
  return { ignoredSignals: parseSignalMask(env[LAUNCH_VARIABLES.signals]), inheritedFds: fds }
}

/** Set once by the CLI entry, before anything runs. */
export function setLaunchContext(next: LaunchContext): void {
  context = next
}

export function launchContext(): LaunchContext {
  return context
}
