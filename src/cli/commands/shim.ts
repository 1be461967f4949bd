import { realpathSync } from 'node:fs'
import { delimiter, resolve } from 'node:path'
import { closestName } from '../../closest-name.js'
import { UsageError } from '../../errors.js'
import { uninstallShims, installShims, writableByOthers } from '../../shims/install.js'
import { defaultShimDirectory, pathWithoutShims } from '../../shims/shim-dir.js'
import { detectShell, pathLine, PROFILE_FILES } from '../../shims/shell-lines.js'
import { isKnownExecutable, knownToolNames } from '../../shims/tool-names.js'
import { which } from '../../tools/argv/which.js'
import { RESILIENT_VERSION } from '../../version.js'

/** The bin script this process was started from: what shims and aliases run. */
export function resilientEntry(): string {
  const script = process.argv[1] ?? ''
  try {
    return realpathSync(script)
  } catch {
    return resolve(script)
  }
}

function say(line = ''): void {
  process.stderr.write(`${line}\n`)
}

/** `resilient shim install [--dir <dir>] [tools...]`. */
export async function runShimInstall(tools: string[], options: { dir?: string }): Promise<number> {
  const env = process.env
  const dir = resolve(options.dir ?? defaultShimDirectory(env))
  // A name it does not know is skipped, not fatal: the others are written (a list kept in a CI script outlives a version).
  const unknown = tools.filter(tool => !isKnownExecutable(tool))
  const named = tools.filter(tool => isKnownExecutable(tool))
  const notKnown = unknown.map(tool => `${tool}${closestName(tool, knownToolNames()) ? ` (did you mean ${closestName(tool, knownToolNames())}?)` : ''}`).join(', ')
  if (unknown.length && !named.length) throw new UsageError(`resilient cannot wrap ${notKnown}, so no shim was written.`, `Tools it knows: ${knownToolNames().join(', ')}.`)
  if (unknown.length) say(`! skipped ${notKnown}: resilient cannot wrap ${unknown.length > 1 ? 'them' : 'it'} (tools it knows: ${knownToolNames().join(', ')}).`)
  const realPath = pathWithoutShims(env.PATH)
  const chosen = tools.length ? named : knownToolNames().filter(tool => which(tool, { ...env, PATH: realPath }))
  const skipped = tools.length ? [] : knownToolNames().filter(tool => !chosen.includes(tool))
  if (!chosen.length) throw new UsageError('None of the tools resilient knows was found on PATH, so no shim was written.', `Name them to write shims anyway: resilient shim install ${knownToolNames().slice(0, 2).join(' ')}.`)
  // Anyone who can write there can replace a shim, or plant a `pip` that runs first on your PATH.
  if (writableByOthers(dir)) say(`! ${dir} is writable by other users: any of them could replace these shims. Use a directory only you can write to (the default is ${defaultShimDirectory(env)}).`)
  const format = process.platform === 'win32' ? 'cmd' : 'sh'
  const result = installShims({ dir, tools: chosen, node: process.execPath, cli: resilientEntry(), resilientVersion: RESILIENT_VERSION, format })
  if (result.written.length) say(`Wrote shims for ${result.written.join(', ')} in ${dir}.`)
  for (const path of result.refused) say(`! left ${path} alone: resilient did not write it.`)
  if (skipped.length) say(`Not on PATH, so no shim: ${skipped.join(', ')} (add one later: resilient shim install <tool>).`)
  const shell = detectShell(env)
  const first = (env.PATH ?? '').split(delimiter)[0]
  if (first && resolve(first) === dir) {
    say(`${dir} is already first on PATH: the shims are active (run \`hash -r\` in an open bash or zsh).`)
  } else {
    say(`\nPut the directory first on PATH: add this line to ${PROFILE_FILES[shell]}, then open a new shell:\n`)
    process.stdout.write(`${pathLine(shell, dir)}\n`)
    say('\nOther shells: `resilient init <bash|zsh|fish|powershell>` prints shell functions instead (docs/shims.md).')
  }
  return result.refused.length && !result.written.length ? 1 : 0
}

/** `resilient shim uninstall [--dir <dir>] [tools...]`. */
export async function runShimUninstall(tools: string[], options: { dir?: string }): Promise<number> {
  const env = process.env
  const dir = resolve(options.dir ?? defaultShimDirectory(env))
  const { removed, directoryRemoved } = uninstallShims(dir, tools)
  if (!removed.length) {
    say(`No resilient shims ${tools.length ? `for ${tools.join(', ')} ` : ''}in ${dir}.`)
    return 0
  }
  say(`Removed shims for ${removed.join(', ')} from ${dir}.`)
  if (directoryRemoved) say(`Removed ${dir}; you can delete this line from ${PROFILE_FILES[detectShell(env)]}:\n  ${pathLine(detectShell(env), dir)}`)
  return 0
}
