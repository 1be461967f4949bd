import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync } from 'node:fs'
import { EXIT, ResilientError } from '../errors.js'
import { writeNewFile } from '../files/private-files.js'
import { join } from 'node:path'
import { isShimFile, readShimManifest, type ShimManifest } from './shim-dir.js'
import { renderCmdShim, renderShim, SHIM_MANIFEST, type ShimTarget } from './shim-script.js'
import { readOnlyFormsFor } from './tool-names.js'

/** Whether a file is a shim resilient wrote, of any version (its second line is the marker). */
export const isResilientShim = isShimFile

/** `sh` scripts everywhere but Windows, where shims are `<tool>.cmd` batch files. */
export type ShimFormat = 'sh' | 'cmd'

/** A shim's file name in its directory. */
export function shimFileName(name: string, format: ShimFormat): string {
  return format === 'cmd' ? `${name}.cmd` : name
}

/**
 * The interpreter of sh shims: bash in POSIX mode where there is one, which passes on every variable it was given,
 * also those whose names are not shell names (`npm_config_@corp:registry`), and reads no startup file (BASH_ENV);
 * else /bin/sh (dash, ash drop such names: the shim then hands the environment to resilient as bin/resilient does,
 * and its read-only fast path runs the tool without them, docs/shims.md).
 */
export function shimShell(): string {
  return existsSync('/bin/bash') ? '/bin/bash --posix' : '/bin/sh'
}

/** The exact text `shim install` writes for a tool now: `resilient doctor` compares installed shims with it. */
export function currentShimText(target: Omit<ShimTarget, 'readOnly' | 'shell'>, format: ShimFormat): string {
  const full = { ...target, readOnly: readOnlyFormsFor(target.name), shell: shimShell() }
  return format === 'cmd' ? renderCmdShim(full) : renderShim(full)
}

/**
 * The shims in `dir` whose text differs from what this resilient writes (with the same node and bin script): written
 * by another version, or before the read-only fast path existed. Missing files are not listed (doctor says so apart).
 */
export function outdatedShims(dir: string, manifest: ShimManifest, resilientVersion: string): string[] {
  const format = manifest.format ?? 'sh'
  return manifest.tools.filter(name => {
    try {
      const text = readFileSync(join(dir, shimFileName(name, format)), 'utf8')
      return text !== currentShimText({ name, node: manifest.node, cli: manifest.cli, resilientVersion }, format)
    } catch {
      return false
    }
  })
}

export interface InstallRequest {
  dir: string
  tools: string[]
  node: string
  cli: string
  resilientVersion: string
  format?: ShimFormat
}

export interface InstallResult {
  written: string[]
  /** Files of the same name that resilient did not write: left alone. */
  refused: string[]
}

/** Replaces `path` with `content` through a fresh temporary file: never written through a link planted there. */
function replaceFile(path: string, content: string, mode: number): void {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  writeNewFile(temporary, content, mode)
  try {
    chmodSync(temporary, mode)
    renameSync(temporary, path)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw new ResilientError(`resilient could not write ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`, EXIT.cantCreate)
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink()
  } catch {
    return false
  }
}

/** Whether users other than the owner may create files in `dir` (plant a shim, or a link at a shim's name). */
export function writableByOthers(dir: string): boolean {
  try {
    const { mode } = statSync(dir)
    return (mode & 0o022) !== 0 && (mode & 0o1000) === 0
  } catch {
    return false
  }
}

/**
 * Writes one shim per tool (mode 755) and the manifest, each through a fresh temporary file renamed into place.
 * Never overwrites a file it did not write, and never a symbolic link (it would write wherever the link points).
 */
export function installShims({ dir, tools, node, cli, resilientVersion, format = 'sh' }: InstallRequest): InstallResult {
  mkdirSync(dir, { recursive: true })
  const written: string[] = []
  const refused: string[] = []
  for (const name of tools) {
    const path = join(dir, shimFileName(name, format))
    if (isLink(path) || (existsSync(path) && !isResilientShim(path))) {
      refused.push(path)
      continue
    }
    replaceFile(path, currentShimText({ name, node, cli, resilientVersion }, format), 0o755)
    written.push(name)
  }
  const previous = readShimManifest(dir)?.tools ?? []
  const manifest: ShimManifest = { tools: [...new Set([...previous, ...written])].sort(), node, cli, resilientVersion, ...(format === 'cmd' && { format }) }
  if (isLink(join(dir, SHIM_MANIFEST))) throw new ResilientError(`${join(dir, SHIM_MANIFEST)} is a symbolic link: resilient will not write through it.`, EXIT.cantCreate, 'Remove it, and check who put it there.')
  replaceFile(join(dir, SHIM_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, 0o644)
  return { written, refused }
}

/** Removes the named shims (all when none are named); removes the manifest and the directory once empty. */
export function uninstallShims(dir: string, tools: string[] = []): { removed: string[]; directoryRemoved: boolean } {
  const manifest = readShimManifest(dir)
  const targets = tools.length ? tools : manifest?.tools ?? []
  const removed: string[] = []
  const format = manifest?.format ?? 'sh'
  for (const name of targets) {
    const path = join(dir, shimFileName(name, format))
    if (!isResilientShim(path)) continue
    rmSync(path, { force: true })
    removed.push(name)
  }
  const remaining = (manifest?.tools ?? []).filter(name => !removed.includes(name) && isResilientShim(join(dir, shimFileName(name, format))))
  if (manifest && remaining.length) {
    replaceFile(join(dir, SHIM_MANIFEST), `${JSON.stringify({ ...manifest, tools: remaining }, null, 2)}\n`, 0o644)
    return { removed, directoryRemoved: false }
  }
  rmSync(join(dir, SHIM_MANIFEST), { force: true })
  let directoryRemoved = false
  try {
    if (existsSync(dir) && readdirSync(dir).length === 0) {
      rmdirSync(dir)
      directoryRemoved = true
    }
  } catch {
    // Something else lives there now: leave the directory.
  }
  return { removed, directoryRemoved }
}
