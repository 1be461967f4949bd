import { TOOLS } from '../tools/index.js'
import type { ToolAdapter } from '../tools/types.js'
import { MAX_INPUT_CHARS } from './normalize.js'

// `resilient why` reads logs without saying which tool wrote them. Each tool leaves marks: its prefixes (npm ERR!,
// ERR_PNPM_, YN0000), its exception names (CondaHTTPError), its files (repodata.json, yarn-error.log), its command
// line. Each mark adds its weight to a tool; the heaviest tool wins when it has enough.

interface Mark {
  tool: string
  weight: number
  pattern: RegExp
}

// A command at the start of a line, after a shell prompt (`user@host:~$ `, `PS C:\> `, `❯ `) or a Dockerfile RUN. Only
// there: the PEP 668 message itself suggests "pipx install xyz". The command counts when toolNamed knows it.
const COMMAND = /^(?:.{0,80}?[$>#%❯➜] |[ \t]*(?:Step \d+\/\d+ : )?RUN |Running: |\+ )?(?:sudo )?(?:python[\d.]* -m )?([\w.-]+) (?:install|add|sync|i|ci|update|upgrade|remove|create|env|lock|run|get|build|fetch|tool|download|wheel|publish|mod|venv|cache|pip)\b/gm

const MARKS: readonly Mark[] = [
  { tool: 'pip', weight: 3, pattern: /Retrying \(Retry\(total=|pip\._(?:vendor|internal)|pip is configured with locations|Downloading\/unpacking/ },
  { tool: 'pip', weight: 3, pattern: /No matching distribution found|Could not find a version that satisfies|Looking in indexes:|DO NOT MATCH THE HASHES|ResolutionImpossible|requires a different Python/ },
  { tool: 'pip', weight: 2, pattern: /^[ \t]*Collecting \S|Could not fetch URL|Could not install packages due to an? (?:OS|Environment)Error|Failed building wheel|subprocess-exited-with-error|Invalid requirement:|externally-managed-environment/m },
  { tool: 'uv', weight: 3, pattern: /\bUV_[A-Z_]{3,}|No solution found when resolving|was included because|[/\\]uv[/\\]cache|\.cache\/uv|Using Python [\d.]+ (?:environment|interpreter) at/ },
  { tool: 'uv', weight: 2, pattern: /Failed to (?:download|fetch|build|extract archive)[: ]|Caused by: |Request failed after \d+ retries/ },
  { tool: 'pixi', weight: 4, pattern: /\bpixi\b|rattler|pixi\.toml|requirements of (?:environment )?'[\w-]+'|pypi-dependencies/ },
  { tool: 'poetry', weight: 3, pattern: /\bpoetry\b|pypoetry|ChefBuildError|SolverProblemError|version solving failed/ },
  { tool: 'pdm', weight: 3, pattern: /\bpdm\b|unearth\.|pdm\.termui/ },
  { tool: 'pipx', weight: 4, pattern: /[/\\]pipx\b|pipx\.main|\bpipx[/\\]venvs/ },
  { tool: 'conda', weight: 3, pattern: /Conda(?:HTTP|SSL)?Error|conda\.exceptions|PackagesNotFoundError|NotWritableError|Collecting package metadata|Solving environment|repodata\.json|\.conda_lock|UnsatisfiableError|ChecksumMismatchError|anaconda\.(?:org|com)|continuum\.io/ },
  { tool: 'conda', weight: 1, pattern: /\bconda\b|conda-forge/ },
  { tool: 'mamba', weight: 3, pattern: /libmamba|\bmamba\b/ },
  { tool: 'micromamba', weight: 5, pattern: /micromamba/ },
  { tool: 'npm', weight: 4, pattern: /(?:^|\s)npm (?:ERR!|error|WARN|warn|notice) |npm-cli\.js|npm-cache|\.npm[/\\]_logs|^\d+ (?:verbose|silly|info) /m },
  { tool: 'npm', weight: 1, pattern: /\bE(?:RESOLVE|TARGET|INTEGRITY|401|403|404|407|429|503)\b|gyp ERR!/ },
  { tool: 'pnpm', weight: 5, pattern: /ERR_PNPM_|\bpnpm\b/ },
  { tool: 'pnpm', weight: 2, pattern: /Will retry in \d+ (?:seconds?|minutes?)|^Progress: resolved \d+/m },
  { tool: 'yarn', weight: 4, pattern: /\byarn (?:install|add|upgrade) v\d|yarn-error\.log|trouble with your network connection|other yarn instance|An unexpected error occurred|registry\.yarnpkg\.com|^\[\d\/\d\] /m },
  { tool: 'yarn-berry', weight: 6, pattern: /\bYN\d{4}: / },
  { tool: 'bun', weight: 4, pattern: /\bbun (?:install|add) v\d|\bbun\b/ },
  { tool: 'cargo', weight: 4, pattern: /\bcargo\b|crates\.io|spurious network error|\.crate\b|Cargo\.(?:toml|lock)/ },
  { tool: 'go', weight: 4, pattern: /^go: |\bgo\.(?:mod|sum)\b|proxy\.golang\.org|sum\.golang\.org|\bGOPROXY\b|\bGOFLAGS\b/m },
  { tool: 'node', weight: 2, pattern: /node:internal|ERR_MODULE_NOT_FOUND|Cannot find module '/ },
  { tool: 'python', weight: 2, pattern: /Traceback \(most recent call last\)|ModuleNotFoundError|ImportError: No module named/ },
]

const MIN_SCORE = 2
const COMMAND_WEIGHT = 5

/** The tool that most likely wrote `text`, or null when the marks are too weak to say. */
export function guessTool(text: string): string | null {
  const sample = text.length > MAX_INPUT_CHARS ? text.slice(-MAX_INPUT_CHARS) : text
  const scores = new Map<string, number>()
  const add = (tool: string, weight: number) => scores.set(tool, (scores.get(tool) ?? 0) + weight)
  for (const match of sample.matchAll(COMMAND)) {
    const tool = toolNamed(match[1]!)
    if (tool && !(tool in RUNTIMES)) add(tool, COMMAND_WEIGHT)
  }
  for (const mark of MARKS) if (mark.pattern.test(sample)) add(mark.tool, mark.weight)
  let best: string | null = null
  let bestScore = MIN_SCORE - 1
  for (const [tool, score] of scores) {
    if (score > bestScore) {
      best = tool
      bestScore = score
    }
  }
  return best
}

/** Runtimes whose own errors the rules know (a script's missing module), with the other names people type for them. */
const RUNTIMES: Record<string, readonly string[]> = { python: ['py'], node: [] }

/** Every tool name the rules know, for `resilient why --tool`: each adapter's, then the runtimes. */
export const DIAGNOSED_TOOLS: readonly string[] = [...Object.keys(TOOLS), ...Object.keys(RUNTIMES)]

// An adapter answers to its name, its executables (`pip3`, `uvx`, `yarnpkg`) and its nicknames (`npx`, `berry`).
const answersTo = (adapter: ToolAdapter, name: string) => adapter.executables.test(name) || Boolean(adapter.nicknames?.includes(name))

/** The rules' name for a tool as a person may write it (`pip3`, `npx`, `python3.12`), or undefined if unknown. */
export function toolNamed(name: string): string | undefined {
  const lower = name.toLowerCase().replace(/\.exe$/, '').replace(/^python\d+(?:\.\d+)?$/, 'python')
  if (DIAGNOSED_TOOLS.includes(lower)) return lower
  const adapter = (Object.values(TOOLS) as ToolAdapter[]).find(candidate => answersTo(candidate, lower))
  return adapter?.name ?? Object.entries(RUNTIMES).find(([, names]) => names.includes(lower))?.[0]
}
