import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { findOptions } from '../argv/args.js'
import type { ToolContext } from '../types.js'

/** A key of yarn 1's `.yarnrc` (`registry "https://..."`, or a default flag `"--registry" "https://..."`). */
export function yarnrcSetting(key: string, { args, cwd, home }: ToolContext): { value: string; origin: string } | undefined {
  const files = findOptions(args, { long: ['--use-yarnrc'], takesValue: true }).flatMap(option => option.value ? [resolve(cwd, option.value)] : [])
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    files.push(join(dir, '.yarnrc'))
    if (dirname(dir) === dir) break
  }
  files.push(join(home, '.yarnrc'))
  const line = new RegExp(`^\\s*"?(?:--)?${key}"?\\s+"?([^"\\s]+)"?\\s*$`, 'm')
  for (const file of files) {
    try {
      const value = line.exec(readFileSync(file, 'utf8'))?.[1]
      if (value) return { value, origin: file }
    } catch {
      // no such file
    }
  }
  return undefined
}
