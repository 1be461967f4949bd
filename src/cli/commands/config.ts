import { existsSync } from 'node:fs'
import { leafPaths, loadConfig, PRECEDENCE } from '../../config/load.js'
import { redact, redactDeep } from '../../redact.js'
import { configFlags, type RunFlags } from '../../run/flags.js'

function valueAt(config: object, path: string): unknown {
  return path.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], config)
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map(row => row[column]!.length)))
  return rows.map(row => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ')).join('\n')
}

/**
 * `resilient config [--json]`: the effective configuration and where each value came from. A file that cannot be
 * read does not hide the rest: the values up to it are shown, then its error, and the status is the error's (78).
 */
export async function runConfig(options: { json?: boolean }, globals: RunFlags): Promise<number> {
  const loaded = await loadConfig({ cwd: process.cwd(), env: process.env, flags: configFlags(globals), tolerant: true })
  const broken = loaded.broken
  const brokenLine = broken && `resilient: ${broken.message}\n`
  const paths = leafPaths(loaded.config as Record<string, unknown>)
  // A project config skipped until trusted (docs/security.md): say so, as a run would.
  for (const notice of loaded.notices) process.stderr.write(`! ${redact(notice)}\n`)
  if (options.json) {
    const files = { user: { path: loaded.userConfigFile, exists: existsSync(loaded.userConfigFile) }, project: loaded.projectFile ?? null }
    // `path`, not `key`: redactDeep masks the values of properties named like secrets (*KEY*, *TOKEN*).
    const settings = paths.map(path => ({ path, value: valueAt(loaded.config, path), from: loaded.origins[path] ?? 'default' }))
    const error = broken ? { error: broken.message } : {}
    process.stdout.write(`${JSON.stringify(redactDeep({ precedence: PRECEDENCE, files, config: loaded.config, settings, ...error }), null, 2)}\n`)
    if (brokenLine) process.stderr.write(redact(brokenLine))
    return broken?.exitCode ?? 0
  }
  const rows = [['key', 'value', 'from'], ...paths.map(path => [path, JSON.stringify(valueAt(loaded.config, path)), loaded.origins[path] ?? 'default'])]
  const lines = [
    `precedence (lowest first): ${PRECEDENCE}`,
    `user config:    ${loaded.userConfigFile}${existsSync(loaded.userConfigFile) ? '' : ' (not found)'}`,
    `project config: ${loaded.projectFile ?? '(none found from this directory)'}`,
    ...(broken ? ['', `! a configuration file could not be read: the values below are those of the layers before it (${broken.message})`] : []),
    '',
    table(rows),
  ]
  process.stdout.write(`${redact(lines.join('\n'))}\n`)
  if (brokenLine) process.stderr.write(redact(brokenLine))
  return broken?.exitCode ?? 0
}
