import { createRequire } from 'node:module'

// TOML and YAML parsers are loaded on first use, synchronously (adapters read config files inside sync functions):
// importing them up front cost ~35 ms on every run, although a pip run never reads a TOML or YAML file.
const load = createRequire(import.meta.url)
let toml: typeof import('smol-toml') | undefined
let yaml: typeof import('js-yaml') | undefined

export function parseToml(text: string): Record<string, unknown> {
  toml ??= load('smol-toml') as typeof import('smol-toml')
  return toml.parse(text) as Record<string, unknown>
}

export function stringifyToml(value: Record<string, unknown>): string {
  toml ??= load('smol-toml') as typeof import('smol-toml')
  return toml.stringify(value)
}

export function parseYaml(text: string): unknown {
  yaml ??= load('js-yaml') as typeof import('js-yaml')
  return yaml.load(text)
}
