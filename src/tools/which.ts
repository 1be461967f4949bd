import { accessSync, constants, statSync } from 'node:fs'
import { delimiter, isAbsolute, join } from 'node:path'

/** Finds an executable on PATH the way a shell would; `skip` excludes directories (a shim's own). */
export function which(name: string, env: NodeJS.ProcessEnv, skip: (dir: string) => boolean = () => false): string | undefined {
  if (name.includes('/')) return isExecutable(name) ? name : undefined
  const extensions = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : ['']
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir || !isAbsolute(dir) || skip(dir)) continue
    for (const extension of extensions) {
      const candidate = join(dir, name + extension)
      if (isExecutable(candidate)) return candidate
    }
  }
  return undefined
}

function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}
