import { describe, expect, it } from 'vitest'
import { inTerminal, pty as terminal, type TerminalStep } from '../helpers/pty.js'
import { runCli } from '../helpers/run-cli.js'
import { standIn, type StandIn } from '../helpers/process-helpers.js'

// A fake pip that fails like real pip behind a dead proxy (pip 23 wording) until it is given a working one, and a
// private index that answers 401 until credentials arrive. It logs what each attempt received.
function fakePip(): StandIn {
  return standIn('pip', `echo "proxy=$HTTPS_PROXY args=$*" >> "$LOG"
# pip reads credentials for an index host from the netrc that NETRC names (requests' netrc support).
if [ -n "$NETRC" ] && [ -f "$NETRC" ]; then echo "netrc=$(tr '\n' ' ' < "$NETRC")" >> "$LOG"; fi
case "$*" in
  *private*) if [ -n "$NETRC" ] && grep -q "machine private.example" "$NETRC"; then echo "Successfully installed x"; exit 0; fi; echo "ERROR: HTTP error 401 while getting https://private.example/simple/x/" >&2; echo "ERROR: 401 Client Error: Unauthorized for url: https://private.example/simple/x/" >&2; exit 1;;
esac
if [ "$HTTPS_PROXY" = "http://good-proxy.example:3128" ]; then echo "Successfully installed x"; exit 0; fi
echo "WARNING: Retrying (Retry(total=0, connect=None, read=None, redirect=None, status=None)) after connection broken by 'ProxyError('Cannot connect to proxy.', OSError('Tunnel connection failed: 403 Forbidden'))': /simple/x/" >&2
echo "ERROR: No matching distribution found for x" >&2
exit 1
`, { TERM: 'xterm' })
}

/** The built CLI in a terminal; each answer is typed shortly after its question shows. */
const inTerminalAnswering = (args: string[], env: Record<string, string>, answers: TerminalStep[]) => inTerminal(args, answers, { env, cols: 120, rows: 40, typeDelayMs: 100 })

describe('asking the person when no automatic fix exists', () => {
  it.skipIf(!terminal)('asks for a proxy URL in a terminal and retries with it', async () => {
    const pip = fakePip()
    const result = await inTerminalAnswering(['pip', 'install', 'x'], pip.env, [[/Proxy URL/, 'http://good-proxy.example:3128\r']])
    expect(result.exitCode, result.screen).toBe(0)
    // The first attempt went through resilient's relay; the one with the person's proxy goes to the index as typed.
    expect(pip.lines().filter(line => line.startsWith('proxy=')).map(line => line.replace(/ --index-url http:\/\/127\.\d+\.\d+\.\d+:\d+\/simple\/ --trusted-host 127\.\d+\.\d+\.\d+:\d+$/, ' <relay>')))
      .toEqual(['proxy= args=install x <relay>', 'proxy=http://good-proxy.example:3128 args=install x'])
    expect(result.screen).toMatch(/proxy/i)
  })

  it.skipIf(!terminal)('asks for a token for a private index without echoing it, and never prints it', async () => {
    const pip = fakePip()
    const token = 'tok-3e9f1c0a7b'
    const result = await inTerminalAnswering(['pip', 'install', '--index-url', 'https://private.example/simple', 'x'], pip.env, [
      [/User name/, '\r'],
      [/Token or password/, `${token}\r`],
    ])
    expect(result.exitCode, result.screen).toBe(0)
    const calls = pip.lines()
    // The token reaches pip through a private netrc file, never its command line (where any local user could read it).
    expect(calls.filter(line => line.startsWith('proxy='))).toHaveLength(2)
    expect(calls.filter(line => line.startsWith('proxy=')).join('\n')).not.toContain(token)
    expect(calls.find(line => line.startsWith('netrc='))).toMatch(new RegExp(`machine private\\.example .*password ${token}`))
    expect(result.screen).not.toContain(token)
  })

  it('never asks without a terminal: gives up with the next step', async () => {
    const pip = fakePip()
    const result = await runCli(['pip', 'install', 'x'], { env: pip.env })
    expect(result.exitCode).toBe(1)
    // One run of pip (a line each; the netrc the relay hands pip is logged on a line of its own).
    expect(pip.lines().filter(line => line.startsWith('proxy='))).toHaveLength(1)
    expect(result.stderr).toMatch(/failed after [\d.]+ s, not retried: proxy/i)
    expect(result.stderr).toMatch(/HTTPS_PROXY/)
  })

  it.skipIf(!terminal)('with --yes takes the safe default (stop) in a terminal', async () => {
    const pip = fakePip()
    const result = await inTerminalAnswering(['--yes', 'pip', 'install', 'x'], pip.env, [])
    expect(result.exitCode).toBe(1)
    expect(result.screen).not.toMatch(/Proxy URL/)
  })
})
