import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

/** The `lib/python3.X/site-packages` folders under a Python prefix (a venv's, pipx's, /usr/local's). */
function sitePackages(prefix: string): string[] {
  try {
    return readdirSync(join(prefix, 'lib')).filter(name => /^python3(\.\d+)?$/.test(name)).flatMap(name => [join(prefix, 'lib', name, 'site-packages'), join(prefix, 'lib', name, 'dist-packages')])
  } catch {
    return []
  }
}

function distInfoVersion(dir: string): [number, number] | undefined {
  try {
    const found = readdirSync(dir).map(name => /^pdm-(\d+)\.(\d+)(\.[^-]*)?\.dist-info$/.exec(name)).find(Boolean)
    return found ? [Number(found[1]), Number(found[2])] : undefined
  } catch {
    return undefined
  }
}

/**
 * The installed pdm's version (major, minor), read from its `pdm-X.Y.Z.dist-info` beside the interpreter its script
 * starts (its `#!` line: a venv's python for pipx or `pip install` into a venv, /usr/bin/python3 for Debian's
 * python3-pdm), without starting Python (about 1.5 s). Undefined when it cannot be told (`python -m pdm`, a wrapper).
 */
export function installedPdmVersion(executable: string | undefined): [number, number] | undefined {
  if (!executable) return undefined
  let interpreter: string | undefined
  try {
    interpreter = /^#!\s*(\S+)/.exec(readFileSync(executable, 'utf8').slice(0, 512))?.[1]
  } catch {
    return undefined
  }
  if (!interpreter || /\/env$/.test(interpreter)) return undefined
  const prefix = dirname(dirname(interpreter))
  const system = prefix === '/usr' ? ['/usr/lib/python3/dist-packages', ...sitePackages('/usr/local')] : []
  for (const dir of [...sitePackages(prefix), ...system]) {
    const version = distInfoVersion(dir)
    if (version) return version
  }
  return undefined
}
