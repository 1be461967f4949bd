import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ToolContext } from '../types.js'

/**
 * A go setting as `go env NAME` would print it, without starting go: the environment wins, then the `go env -w`
 * file ($GOENV, default os.UserConfigDir()/go/env). An empty variable counts as unset, as in go.
 */
export function goSetting(name: string, { env, home }: Pick<ToolContext, 'env' | 'home'>): { value: string; origin: string } | undefined {
  if (env[name]) return { value: env[name]!, origin: name }
  if (env.GOENV === 'off') return undefined
  const file = env.GOENV || join(env.XDG_CONFIG_HOME || join(home, '.config'), 'go', 'env')
  try {
    const line = readFileSync(file, 'utf8').split(/\r?\n/).find(l => l.startsWith(`${name}=`))
    const value = line?.slice(name.length + 1).trim()
    return value ? { value, origin: `${name} in ${file}` } : undefined
  } catch {
    return undefined
  }
}
