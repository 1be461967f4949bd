import { createHash } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { findOptions } from '../argv/args.js'
import { CONFIG_FILE, mirrorConfigText, NO_CONFIG, readGlobalConfig } from '../config/pixi-config.js'
import { envFlag } from '../config/project-files.js'
import type { CommandLine, ScratchDir } from '../types.js'
import { withEnv } from '../argv/command-line.js'

/** What the mirror config file needs from the user's setup; resolveVariant binds it once per run. */
export interface PixiSetup {
  env: NodeJS.ProcessEnv
  home: string
  /** The run's private directory: the mirror config is written there, never at a guessable name in /tmp. */
  scratch: ScratchDir
  /** `pixi --version` as [major, minor], when it could be read. */
  version?: [number, number]
}

/**
 * A temporary config file: the user's own global config (it would be skipped otherwise) plus `[mirrors]`. pixi reads
 * it through PIXI_CONFIG_FILE, or in place of the `--config-file` the user gave; the workspace's `.pixi/config.toml`
 * still applies on top, and pixi.lock is untouched because mirrors redirect requests, not channel names.
 */
export function applyPixiIndex(command: CommandLine, url: string, setup: PixiSetup | undefined): CommandLine {
  const own = command.argv.slice(1)
  const user = setup ? readGlobalConfig(own, setup.env, setup.home, '.') : {}
  // The mirror's host in the name shows where the attempt goes in --dry-run and progress lines. Unbound (a dry run
  // for a pixi that is not installed), the path is only shown, never written.
  const host = (/^[a-z]+:\/\/([^/@]*@)?([^/:]+)/i.exec(url)?.[2] ?? 'mirror').replace(/[^a-z0-9.-]/gi, '_')
  return withPixiConfigFile(command, pixiConfigPath(setup, `pixi-${host}-${createHash('sha256').update(url).digest('hex').slice(0, 8)}.toml`), mirrorConfigText(user, url), setup)
}

/** Where an attempt's pixi config goes: the run's private directory (unbound: a path only shown, never written). */
export function pixiConfigPath(setup: PixiSetup | undefined, name: string): string {
  return join(setup?.scratch.path ?? join(tmpdir(), 'resilient-run-<pid>-XXXXXX'), name)
}

/**
 * The command with `content` as its pixi config for one attempt: through PIXI_CONFIG_FILE, or in place of the
 * `--config-file` (or `--no-config`) the user gave.
 */
export function withPixiConfigFile(command: CommandLine, path: string, content: string, setup: PixiSetup | undefined): CommandLine {
  const own = command.argv.slice(1)
  const files = [...(command.files ?? []), { path, content }]
  const given = findOptions(own, CONFIG_FILE)
  const noConfig = findOptions(own, NO_CONFIG)[0]
  if (given.length) {
    const argv = [...command.argv]
    for (const option of given) {
      if (argv[option.index + 1]!.includes('=')) argv[option.index + 1] = `--config-file=${path}`
      else argv[option.index + 2] = path
    }
    return { ...command, argv, files }
  }
  if (noConfig) return { ...command, argv: command.argv.flatMap((arg, index) => index === noConfig.index + 1 ? ['--config-file', path] : [arg]), files }
  // --no-config and --config-file conflict in clap, also when one comes from the environment.
  const env: Record<string, string> = setup && envFlag(setup.env, 'PIXI_NO_CONFIG') ? { PIXI_CONFIG_FILE: path, PIXI_NO_CONFIG: 'false' } : { PIXI_CONFIG_FILE: path }
  return { ...withEnv(command, env), files }
}
