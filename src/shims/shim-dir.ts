import { existsSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { delimiter, join } from 'node:path'
import { SHIM_MANIFEST, SHIM_MARKER_LINE } from './shim-script.js'

/** What `resilient shim install` records next to the shims it wrote. */
export interface ShimManifest {
  tools: string[]
  node: string
  cli: string
  resilientVersion: string
  /** `cmd` on Windows (`pip.cmd`); absent for sh shims. */
  format?: 'cmd'
}

/** `$XDG_DATA_HOME/resilient/shims`, else `~/.local/share/resilient/shims`. */
export function defaultShimDirectory(env: NodeJS.ProcessEnv): string {
  const data = env.XDG_DATA_HOME || join(env.HOME || homedir(), '.local', 'share')
  return join(data, 'resilient', 'shims')
}

export function isShimDirectory(dir: string): boolean {
  return existsSync(join(dir, SHIM_MANIFEST))
}

export function readShimManifest(dir: string): ShimManifest | undefined {
  try {
    const value = JSON.parse(readFileSync(join(dir, SHIM_MANIFEST), 'utf8')) as Partial<ShimManifest>
    if (!Array.isArray(value.tools)) return undefined
    return { tools: value.tools, node: value.node ?? '', cli: value.cli ?? '', resilientVersion: value.resilientVersion ?? '', ...(value.format === 'cmd' && { format: 'cmd' as const }) }
  } catch {
    return undefined
  }
}

/** Whether `path` is a shim resilient wrote (its second line is the marker), wherever it now lives. */
export function isShimFile(path: string): boolean {
  try {
    return SHIM_MARKER_LINE.test(readFileSync(path, 'utf8').slice(0, 200).split(/\r?\n/)[1] ?? '')
  } catch {
    return false
  }
}

/**
 * PATH without resilient's shim directories: where the real tools are found, and what children see. With `tool`,
 * a directory whose `tool` is a shim copied there without its manifest is left out too (it would run itself).
 */
export function pathWithoutShims(path: string | undefined, tool?: string): string {
  return (path ?? '').split(delimiter).filter(dir => !dir || !(isShimDirectory(dir) || (tool && isShimFile(join(dir, tool))))).join(delimiter)
}

/** The shim directories on PATH, in order. */
export function shimDirectoriesOnPath(path: string | undefined): string[] {
  return (path ?? '').split(delimiter).filter(dir => dir && isShimDirectory(dir))
}
