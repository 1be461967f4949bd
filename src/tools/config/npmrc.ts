import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { findOptions } from '../argv/args.js'
import { findEnv } from '../npm-family.js'
import type { ToolContext } from '../types.js'
import { isMissingFile } from '../../files/missing-file.js'

/**
 * npm's config files as npm itself reads them, without starting npm (`npm config get` costs ~0.3 s).
 * Precedence (first wins): project `.npmrc` > user `~/.npmrc` > global `$PREFIX/etc/npmrc`.
 * https://docs.npmjs.com/cli/v11/configuring-npm/npmrc
 */
export interface NpmrcSetting {
  key: string
  value: string
  /** The file it came from. */
  origin: string
}

/** Parses one npmrc (ini) file; `${VAR}` is replaced from the environment as npm does. */
export function parseNpmrc(text: string, env: NodeJS.ProcessEnv): Map<string, string> {
  const settings = new Map<string, string>()
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    if (!line || line.startsWith(';') || line.startsWith('#') || line.startsWith('[')) continue
    const equals = line.indexOf('=')
    if (equals === -1) continue
    const key = line.slice(0, equals).trim()
    let value = line.slice(equals + 1).trim()
    if (/^(["']).*\1$/.test(value)) value = value.slice(1, -1)
    settings.set(key, value.replace(/\$\{([^}]+)\}/g, (_, name: string) => env[name] ?? ''))
  }
  return settings
}

/** npm's local prefix: the nearest directory upward that holds package.json or node_modules. */
function projectRoot(cwd: string): string {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) || existsSync(join(dir, 'node_modules'))) return dir
    if (dirname(dir) === dir) return resolve(cwd)
  }
}

const USERCONFIG = { long: ['--userconfig'], takesValue: true, anyDashes: true }
const GLOBALCONFIG = { long: ['--globalconfig'], takesValue: true, anyDashes: true }

/** The npmrc files npm would read for this command, highest precedence first. */
export function npmrcFiles({ args, env, cwd, home, executable }: ToolContext): string[] {
  const userconfig = findOptions(args, USERCONFIG).at(-1)?.value ?? findEnv(env, ['npm_config_userconfig'])?.value ?? join(home, '.npmrc')
  const prefix = findEnv(env, ['npm_config_prefix'])?.value ?? (executable ? dirname(dirname(executable)) : undefined)
  const globalconfig = findOptions(args, GLOBALCONFIG).at(-1)?.value ?? findEnv(env, ['npm_config_globalconfig'])?.value ?? (prefix && join(prefix, 'etc', 'npmrc'))
  return [join(projectRoot(cwd), '.npmrc'), resolve(cwd, userconfig), ...(globalconfig ? [resolve(cwd, globalconfig)] : [])]
}

export type NpmrcRead = { file: string; settings: Map<string, string> } | { file: string; unreadable: string }

/** Each npmrc file that exists, parsed; one that exists but cannot be read says why (resilient then fails closed). */
export function readNpmrcFiles(files: readonly string[], env: NodeJS.ProcessEnv): NpmrcRead[] {
  const read: NpmrcRead[] = []
  for (const file of files) {
    try {
      read.push({ file, settings: parseNpmrc(readFileSync(file, 'utf8'), env) })
    } catch (error) {
      if (!isMissingFile(error)) read.push({ file, unreadable: (error as NodeJS.ErrnoException).code ?? (error as Error).message })
    }
  }
  return read
}

/** The first of `keys` set in any npmrc file, in npm's precedence order. */
export function readNpmrcSetting(keys: readonly string[], context: ToolContext, files = npmrcFiles(context)): NpmrcSetting | undefined {
  for (const read of readNpmrcFiles(files, context.env)) {
    if (!('settings' in read)) continue
    for (const key of keys) {
      const value = read.settings.get(key)
      if (value) return { key, value, origin: read.file }
    }
  }
  return undefined
}

/** The scope registries (`@corp:registry=<url>`) set in these npmrc files, as npm, pnpm, yarn 1 and bun read them. */
export function npmrcScopeRegistries(files: readonly string[], env: NodeJS.ProcessEnv): string[] {
  return readNpmrcFiles(files, env).flatMap(read => 'settings' in read ? [...read.settings].filter(([key]) => /^@[^:=/\s]+:registry$/i.test(key)).map(([, value]) => value) : [])
}
