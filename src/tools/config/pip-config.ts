import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { sitePrefix } from './pip-site.js'
import { isMissingFile } from '../../files/missing-file.js'

/**
 * pip's configuration as pip itself would see it, read without starting Python (`pip config list` costs ~0.3 s).
 * Order (later wins): global < user < site < PIP_CONFIG_FILE; within a file `[global]` < `[<command>]`.
 * https://pip.pypa.io/en/stable/topics/configuration/
 */
export interface PipSetting {
  value: string
  origin: string
  /** The file exists but could not be read: resilient cannot tell what it sets (fail closed). */
  unreadable?: string
}

function parseIni(text: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>()
  let current: Map<string, string> | undefined
  let lastKey: string | undefined
  for (const raw of text.split(/\r?\n/)) {
    if (/^\s*[#;]/.test(raw) || raw.trim() === '') continue
    const header = /^\s*\[([^\]]+)\]\s*$/.exec(raw)
    if (header) {
      current = new Map()
      sections.set(header[1]!.trim().toLowerCase(), current)
      lastKey = undefined
      continue
    }
    // configparser continuation lines: extra-index-url can list one URL a line.
    if (/^\s/.test(raw) && current && lastKey) {
      current.set(lastKey, `${current.get(lastKey)} ${raw.trim()}`.trim())
      continue
    }
    const pair = /^\s*([^=:]+?)\s*[=:]\s*(.*)$/.exec(raw)
    if (pair && current) {
      lastKey = pair[1]!.toLowerCase().replace(/_/g, '-')
      current.set(lastKey, pair[2]!.trim())
    }
  }
  return sections
}

export interface PipConfigScope {
  env: NodeJS.ProcessEnv
  home: string
  /** The pip script or the interpreter of `python -m pip`: its prefix holds the site config. */
  executable?: string
  /** `--isolated`: pip skips the user's files (and PIP_* variables), not the global and site ones. */
  isolated?: boolean
  /** Where the command runs: a pyenv or asdf shim is followed to its interpreter from there (its version files). */
  cwd?: string
}

export function pipConfigFiles(env: NodeJS.ProcessEnv, home: string, scope: Partial<PipConfigScope> = {}): string[] {
  const configFile = env.PIP_CONFIG_FILE
  // PIP_CONFIG_FILE=/dev/null (os.devnull) disables every config file.
  if (configFile === '/dev/null' || configFile === 'nul') return []
  const xdgConfig = env.XDG_CONFIG_HOME || join(home, '.config')
  const xdgDirs = (env.XDG_CONFIG_DIRS || '/etc/xdg').split(':').filter(Boolean)
  const files = [...xdgDirs.map(dir => join(dir, 'pip', 'pip.conf')), '/etc/pip.conf']
  // An existing PIP_CONFIG_FILE replaces the user's files (pip configuration.py iter_config_files).
  if (!scope.isolated && !(configFile && existsSync(configFile))) files.push(join(home, '.pip', 'pip.conf'), join(xdgConfig, 'pip', 'pip.conf'))
  // Behind a shim the site file is a guess: the choice is then uncertain, and pip itself is asked (tools/source/pip-source.ts).
  const site = sitePrefix(env, scope.executable, scope.cwd === undefined ? undefined : { cwd: scope.cwd, home })
  files.push(...(site.prefix ? [site.prefix] : site.guesses).map(prefix => join(prefix, 'pip.conf')))
  if (configFile) files.push(configFile)
  return files
}

/** The effective value of a pip config key for a command, from config files only; `unreadable` when one could not be read. */
export function readPipConfig(key: string, command: string | undefined, env: NodeJS.ProcessEnv, home: string, scope: Partial<PipConfigScope> = {}): PipSetting | undefined {
  let found: PipSetting | undefined
  for (const file of pipConfigFiles(env, home, scope)) {
    let sections: Map<string, Map<string, string>>
    try {
      sections = parseIni(readFileSync(file, 'utf8'))
    } catch (error) {
      if (!isMissingFile(error)) return { value: '', origin: file, unreadable: (error as NodeJS.ErrnoException).code ?? 'unreadable' }
      continue
    }
    for (const section of ['global', command].filter(Boolean) as string[]) {
      const value = sections.get(section)?.get(key)
      if (value !== undefined && value !== '') found = { value, origin: `${file} [${section}] ${key}` }
    }
  }
  return found
}
