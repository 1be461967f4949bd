import { basename } from 'node:path'
import { PYPI_UPSTREAM } from '../mirrors/pypi.js'
import { envFlag } from './config/project-files.js'
import { streamedRequirementsChooseIndex } from './config/requirement-files.js'
import { pep503PackageUrl, UV_KNOB_DATA, WHEELHOUSE_ONLY } from './source/python-index.js'
import type { CommandLine, ReadOnlyForms, ToolAdapter, ToolContext } from './types.js'
import { findLockedRegistry, findUvDefaultIndex } from './config/uv-config.js'
import { argsStart, findUvOptions, parseUvCommand, replaceValue, UV_OPTIONS } from './argv/uv-options.js'
import { named, versionAndHelp } from './argv/read-only.js'
import { networkVariables } from './config/environment.js'
import { withEnv } from './argv/command-line.js'
import { classifyVerb } from './argv/verbs.js'
import { uvRelay } from './relay/uv-relay.js'

// uv-cli lib.rs. `uv run` without --with runs the user's program, which must not run twice: it runs once.
const NETWORK = new Set(['pip install', 'pip sync', 'pip compile', 'add', 'remove', 'lock', 'sync', 'tree', 'export',
  'build', 'tool install', 'tool run', 'tool upgrade', 'python install'])
const PUBLISH = new Set(['publish', 'auth login', 'auth logout', 'auth token'])
// `pip list/tree --outdated` asks the index; `run` only installs for --with; `venv --seed` installs pip.
const VERBS = { network: NETWORK, publish: PUBLISH, local: /^(-h|--help|-V|--version|--offline)$/,
  networkWhen: { 'pip list': /^--outdated$/, 'pip tree': /^--outdated$/, run: /^--with(-editable|-requirements)?(=|$)/, venv: /^--seed$/ } }
const USES_LOCK = new Set(['sync', 'run', 'add', 'remove', 'tree', 'export'])
// Read-only (uv-cli lib.rs), for `uv` only: after `uvx` the same words name a tool to run. `--outdated` asks the index.
const READ_ONLY = {
  leadingFlags: ['-q', '--quiet', '-v', '-vv', '--verbose', '--no-color'],
  commands: [...versionAndHelp('--version', '-V', '--help', '-h'), ...named(['help']),
    ...named(['list', 'tree'], { under: ['pip'], deny: ['--o*'] }), ...named(['freeze', 'show', 'check'], { under: ['pip'] }),
    ...named(['dir'], { under: ['cache'] }), ...named(['list', 'dir'], { under: ['tool'] }), ...named(['dir'], { under: ['python'] })],
  executables: /^uv(\.exe)?$/,
} satisfies ReadOnlyForms

function uvAdapter(name: string, prefix: string[]) {
  const parse = (args: readonly string[]) => parseUvCommand(args, prefix)
  const frozen = (context: ToolContext) => findUvOptions(parse(context.args).own, UV_OPTIONS.frozen).length > 0 || envFlag(context.env, 'UV_FROZEN')
  // An index on the command line beats the environment: replace its value there (uv add: only --index-url, which
  // is not persisted). Otherwise UV_DEFAULT_INDEX, which beats --index-url and the config files' default index.
  function applyIndex(command: CommandLine, url: string): CommandLine {
    const start = argsStart(command.argv)
    const { verb, own } = parse(command.argv.slice(start))
    const spec = verb === 'add' ? UV_OPTIONS.indexUrl : UV_OPTIONS.defaultIndex
    const found = findUvOptions(own, spec)
    if (found.length) return { ...command, argv: found.reduce((argv, option) => replaceValue(argv, start, option, url), command.argv) }
    return withEnv(command, { [verb === 'add' ? 'UV_INDEX_URL' : 'UV_DEFAULT_INDEX']: url })
  }
  return {
    name,
    ecosystem: 'pypi',
    offline: WHEELHOUSE_ONLY,
    environment: networkVariables('uv', 'UV_DEFAULT_INDEX', 'UV_INDEX', 'UV_INDEX_URL', 'UV_EXTRA_INDEX_URL', 'UV_HTTP_TIMEOUT', 'UV_HTTP_RETRIES'),
    shimNames: ['uv', 'uvx'],
    executables: /^uvx?(\.exe)?$/,
    readOnly: READ_ONLY,
    moduleLaunch: { interpreters: /^python(\d(\.\d+)?)?(\.exe)?$/, module: 'uv' },
    alternatives: [[name], ['python3', '-m', 'uv']],
    defaultIndex: PYPI_UPSTREAM,
    verbs: VERBS,
    classify(args) {
      const { verb, own } = parse(args)
      return classifyVerb(verb, own, VERBS)
    },
    findUserIndex(context) {
      const command = parse(context.args)
      const locked = USES_LOCK.has(command.verb) && frozen(context) ? findLockedRegistry(context, command) : undefined
      const chosen = locked ?? findUvDefaultIndex(context, command)
      return chosen ? { url: chosen.url, origin: chosen.origin } : null
    },
    vetStreamedInput: streamedRequirementsChooseIndex,
    noMirrorReason(context) {
      const command = parse(context.args)
      if (USES_LOCK.has(command.verb) && frozen(context)) return 'with --frozen, uv installs the URLs pinned in uv.lock and ignores every index setting (astral-sh/uv#19625)'
      if (command.verb === 'python install') return 'uv python install downloads Python builds from GitHub, not from a package index (UV_PYTHON_INSTALL_MIRROR points it elsewhere)'
      const chosen = command.verb === 'add' ? findUvDefaultIndex(context, command) : undefined
      // The only index option uv add does not write into pyproject.toml is --index-url, and a default index beats it.
      if (chosen?.kind === 'default-index') return `uv add would write a replacement for your default index (${chosen.origin}) into pyproject.toml`
      return undefined
    },
    knobs: UV_KNOB_DATA,
    applyIndex,
    // Env, not --no-cache: after `uv run`/`uvx`'s program an appended flag would go to that program.
    bypassCache: command => withEnv(command, { UV_NO_CACHE: '1' }),
    packageUrl: pep503PackageUrl,
    relay: uvRelay(parse, applyIndex),
    advice: {
      moreTime: 'UV_HTTP_TIMEOUT=120 UV_HTTP_RETRIES=5 uv <command>',
      mirror: 'UV_DEFAULT_INDEX=<mirror-url> uv <command>',
      caBundle: 'SSL_CERT_FILE=/path/ca.pem uv <command> (or --native-tls for the system store)',
      noCache: 'uv <command> --no-cache',
      cleanCache: 'uv cache clean',
    },
    verified: 'replay',
    forms: '`uv pip install\\|sync\\|compile`, `uv add\\|sync\\|lock`, `uv tool install`, `uvx`, `uv run --with`, `python -m uv`',
    mirrorMechanism: '`UV_DEFAULT_INDEX=<mirror>` (`uv add`: `UV_INDEX_URL`, which uv does not write into pyproject.toml); an index given on the command line gets the mirror in its place; none with `--frozen` (uv.lock\'s URLs: said so)',
  } satisfies ToolAdapter
}

/** `uvx` is `uv tool run`: the same adapter with the subcommand implied. */
export const uvx = uvAdapter('uvx', ['tool', 'run'])

const uvItself = uvAdapter('uv', [])

export const uv = {
  ...uvItself,
  // `uv` and `uvx` are one tool (one TOOLS entry, one set of diagnosis rules); the executable name tells them apart.
  resolveVariant: async (executable: string): Promise<ToolAdapter> => /^uvx(\.exe)?$/.test(basename(executable)) ? uvx : uvItself,
} satisfies ToolAdapter
