import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { readShimManifest, type ShimManifest } from './shim-dir.js'
import { renderShim, SHIM_MANIFEST, SHIM_MARKER } from './shim-script.js'

/** Whether a file is a shim resilient wrote (its second line is the marker). */
export function isResilientShim(path: string): boolean {
  try {
    return readFileSync(path, 'utf8').slice(0, 200).split('\n')[1]?.startsWith(SHIM_MARKER) ?? false
  } catch {
    return false
  }
}

export interface InstallRequest {
  dir: string
  tools: string[]
  node: string
  cli: string
  resilientVersion: string
}

export interface InstallResult {
  written: string[]
  /** Files of the same name that resilient did not write: left alone. */
  refused: string[]
}

/** Writes one shim per tool (atomically, mode 755) and the manifest. Never overwrites a file it did not write. */
export function installShims({ dir, tools, node, cli, resilientVersion }: InstallRequest): InstallResult {
  mkdirSync(dir, { recursive: true })
  const written: string[] = []
  const refused: string[] = []
  for (const name of tools) {
    const path = join(dir, name)
    if (existsSync(path) && !isResilientShim(path)) {
      refused.push(path)
      continue
    }
    const temporary = `${path}.${process.pid}.tmp`
    writeFileSync(temporary, renderShim({ name, node, cli }), { mode: 0o755 })
    chmodSync(temporary, 0o755)
    renameSync(temporary, path)
    written.push(name)
  }
  const previous = readShimManifest(dir)?.tools ?? []
  const manifest: ShimManifest = { tools: [...new Set([...previous, ...written])].sort(), node, cli, resilientVersion }
  writeFileSync(join(dir, SHIM_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`)
  return { written, refused }
}

/** Removes the named shims (all when none are named); removes the manifest and the directory once empty. */
export function uninstallShims(dir: string, tools: string[] = []): { removed: string[]; directoryRemoved: boolean } {
  const manifest = readShimManifest(dir)
  const targets = tools.length ? tools : manifest?.tools ?? []
  const removed: string[] = []
  for (const name of targets) {
    const path = join(dir, name)
    if (!isResilientShim(path)) continue
    rmSync(path, { force: true })
    removed.push(name)
  }
  const remaining = (manifest?.tools ?? []).filter(name => !removed.includes(name) && isResilientShim(join(dir, name)))
  if (manifest && remaining.length) {
    writeFileSync(join(dir, SHIM_MANIFEST), `${JSON.stringify({ ...manifest, tools: remaining }, null, 2)}\n`)
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
