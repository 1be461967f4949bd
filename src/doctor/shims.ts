import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { outdatedShims } from '../shims/install.js'
import { defaultShimDirectory, isShimDirectory, readShimManifest, shimDirectoriesOnPath } from '../shims/shim-dir.js'
import { detectShell, pathLine, PROFILE_FILES } from '../shims/shell-lines.js'
import { which } from '../tools/argv/which.js'
import type { Problem, Section } from './types.js'
import { RESILIENT_VERSION } from '../version.js'

/**
 * Installed shims: on PATH or not, pointing at a resilient that still exists, written by this resilient (their
 * read-only commands are baked in), not shadowed by an earlier real tool.
 */
export function checkShims(env: NodeJS.ProcessEnv, resilientVersion = RESILIENT_VERSION): Section {
  const problems: Problem[] = []
  const onPath = shimDirectoriesOnPath(env.PATH).map(dir => resolve(dir))
  const defaultDir = defaultShimDirectory(env)
  const dirs = [...new Set([...onPath, ...(isShimDirectory(defaultDir) ? [resolve(defaultDir)] : [])])]
  const lines: string[] = []
  const data = dirs.map(dir => {
    const manifest = readShimManifest(dir)
    const active = onPath.includes(dir)
    lines.push(`${dir}: ${manifest?.tools.join(', ') || 'no shims'}${active ? '' : ' (not on PATH: inactive)'}`)
    if (!active) {
      const shell = detectShell(env)
      problems.push({ severity: 'warning', area: 'shims', message: `Shims are installed in ${dir}, but it is not on PATH, so they do nothing.`, fix: `Add to ${PROFILE_FILES[shell]}: ${pathLine(shell, dir)} — or remove them: resilient shim uninstall` })
    }
    if (manifest && manifest.cli && !existsSync(manifest.cli)) {
      problems.push({ severity: 'broken', area: 'shims', message: `The shims in ${dir} run ${manifest.cli}, which no longer exists: every shimmed command fails.`, fix: `Write them again from the resilient you use now: resilient shim install --dir ${dir}` })
    }
    const outdated = manifest ? outdatedShims(dir, manifest, resilientVersion) : []
    if (outdated.length) {
      problems.push({ severity: 'warning', area: 'shims', message: `The shims for ${outdated.join(', ')} in ${dir} were written by resilient ${manifest!.resilientVersion || 'of an unknown version'}, and this resilient (${resilientVersion}) writes them differently: the commands they run without starting Node may be out of date.`, fix: `Write them again: resilient shim install --dir ${dir} ${outdated.join(' ')}` })
    }
    for (const tool of active ? manifest?.tools ?? [] : []) {
      const first = which(tool, env)
      if (first && resolve(first) !== join(dir, tool)) {
        problems.push({ severity: 'warning', area: 'shims', message: `${tool} runs ${first}, found on PATH before the shim in ${dir}.`, fix: `Put ${dir} first on PATH (${pathLine(detectShell(env), dir)}), then \`hash -r\`.` })
      }
    }
    return { dir, tools: manifest?.tools ?? [], active, cli: manifest?.cli, writtenBy: manifest?.resilientVersion, outdated }
  })
  if (!dirs.length) lines.push('none installed (optional: `resilient shim install`, or `resilient init <shell>` for aliases)')
  return { title: 'Shims', lines, data, problems }
}
