import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { configSchema } from '../../src/config/schema.js'
import { formatCommand } from '../../src/tools/argv/format-command.js'
import { buildCommand } from './plan-helpers.js'
import type { Source } from '../../src/retry/types.js'
import type { ToolName } from '../../src/tools/index.js'
import type { ToolAdapter, ToolContext } from '../../src/tools/types.js'

/** The command an attempt on `mirrorUrl` runs, as formatCommand prints it (`--dry-run` shows the same). */
export function rewrite(adapter: ToolAdapter, line: string, mirrorUrl: string | undefined, options: { bypassCache?: boolean } = {}): string {
  const [launcher, ...args] = line.split(' ')
  const source: Source = { id: 'm', url: mirrorUrl, kind: 'mirror', label: 'mirror m' }
  const invocation = { tool: adapter.name as ToolName, adapter, launcher: [launcher!], args, executable: `/usr/bin/${launcher}` }
  const input = { invocation, config: configSchema.parse({}), userKnobs: false }
  return formatCommand(buildCommand(input, source, Boolean(options.bypassCache)))
}

/** A temporary folder with files (`{ '.npmrc': 'registry=...' }`), for config-file cases; nothing outside it is read. */
export function folderWith(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'resilient-tool-'))
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), content)
  }
  return dir
}

/** A ToolContext in `project` with an empty home of its own, unless `home` is given. */
export function contextIn(project: string, args: string, env: NodeJS.ProcessEnv = {}, home = folderWith()): ToolContext {
  return { args: args.split(' ').filter(Boolean), env, cwd: project, home }
}
