import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { parseToml as parse } from './lazy-parsers.js'
import { findOptions } from '../argv/args.js'
import type { ToolContext } from '../types.js'

/**
 * Cargo's configuration as cargo would merge it, read without cargo (`cargo config get` is nightly-only).
 * Precedence (first wins): `--config` arguments > environment (CARGO_*; not for `source.*`) > `.cargo/config.toml`
 * in the current folder and each parent > `$CARGO_HOME/config.toml`. https://doc.rust-lang.org/cargo/reference/config.html
 */
export interface CargoLayer {
  data: Record<string, unknown>
  origin: string
}

function parseToml(text: string): Record<string, unknown> | undefined {
  try {
    return parse(text) as Record<string, unknown>
  } catch {
    return undefined
  }
}

/**
 * A config file's layer, then the files it names in `include` (`include = ["a.toml"]`, or tables with `path` and
 * `optional`), relative to its folder: cargo 1.95 reads them (seen here), the file's own keys winning over theirs and
 * a later one over an earlier one. A source replacement of the person's there is theirs as much as one in the file.
 */
function withIncludes(file: string, data: Record<string, unknown>, origin: string, depth = 0): CargoLayer[] {
  const include = data.include
  const entries = (Array.isArray(include) ? include : typeof include === 'string' ? [include] : [])
    .map(entry => typeof entry === 'string' ? entry : entry && typeof entry === 'object' ? (entry as { path?: unknown }).path : undefined)
    .filter((path): path is string => typeof path === 'string')
  const included = depth > 8 ? [] : entries.reverse().flatMap(path => {
    const target = resolve(dirname(file), path)
    const parsed = existsSync(target) ? parseToml(readFileSync(target, 'utf8')) : undefined
    return parsed ? withIncludes(target, parsed, `${target} (included by ${origin})`, depth + 1) : []
  })
  return [{ data, origin }, ...included]
}

/** `--config KEY=VALUE` (TOML) or `--config PATH`, later ones first (they win). */
function argumentLayers({ args, cwd }: ToolContext): CargoLayer[] {
  return findOptions(args, { long: ['--config'], takesValue: true }).reverse().flatMap(option => {
    const value = option.value ?? ''
    const file = resolve(cwd, value)
    if (/^[\w"'.-]+\s*=/.test(value)) {
      const data = parseToml(value)
      return data ? [{ data, origin: `--config ${value}` }] : []
    }
    const data = existsSync(file) ? parseToml(readFileSync(file, 'utf8')) : undefined
    return data ? withIncludes(file, data, `--config ${value}`) : []
  })
}

function fileLayers({ cwd, env, home }: ToolContext): CargoLayer[] {
  const files: string[] = []
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    files.push(join(dir, '.cargo'))
    if (dirname(dir) === dir) break
  }
  const cargoHome = resolve(env.CARGO_HOME || join(home, '.cargo'))
  if (!files.includes(cargoHome)) files.push(cargoHome)
  return files.flatMap(dir => {
    // `config` without extension is the legacy name; cargo reads config.toml when both exist.
    const file = ['config.toml', 'config'].map(name => join(dir, name)).find(existsSync)
    const data = file ? parseToml(readFileSync(file, 'utf8')) : undefined
    return file && data ? withIncludes(file, data, file) : []
  })
}

/** Every configuration layer in precedence order, the environment excluded (callers check CARGO_* themselves). */
export function cargoConfigLayers(context: ToolContext): { args: CargoLayer[]; files: CargoLayer[] } {
  return { args: argumentLayers(context), files: fileLayers(context) }
}

/** A dotted key (`source.crates-io.replace-with`) in one layer. */
export function lookup(layer: CargoLayer, path: readonly string[]): unknown {
  let node: unknown = layer.data
  for (const key of path) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined
  return node
}

/**
 * A key as cargo reads it: `--config` first, then its CARGO_* variable (`registries.my-reg.index` is
 * CARGO_REGISTRIES_MY_REG_INDEX), then the config files. The `[source]` table has no variables (cargo book,
 * "source.<name>": "Environment: not supported"; cargo 1.95 ignores CARGO_SOURCE_*, seen here).
 */
export function cargoSetting(context: ToolContext, path: readonly string[], layers = cargoConfigLayers(context)): { value: unknown; origin: string } | undefined {
  const { args, files } = layers
  const variable = `CARGO_${path.map(key => key.toUpperCase().replace(/-/g, '_')).join('_')}`
  const fromEnv = path[0] !== 'source' ? context.env[variable] : undefined
  return findSetting(args, path) ?? (fromEnv ? { value: fromEnv, origin: variable } : findSetting(files, path))
}

/** The first layer that sets the key, with its value. */
export function findSetting(layers: readonly CargoLayer[], path: readonly string[]): { value: unknown; origin: string } | undefined {
  for (const layer of layers) {
    const value = lookup(layer, path)
    if (value !== undefined) return { value, origin: layer.origin }
  }
  return undefined
}
