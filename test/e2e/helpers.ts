import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A temporary project directory with a `.mirrorrc.json`, the way a person configures resilient. */
export function projectWithConfig(config: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'resilient-project-'))
  writeFileSync(join(dir, '.mirrorrc.json'), JSON.stringify(config, null, 2))
  return dir
}

export function filesIn(dir: string): string[] {
  try {
    return readdirSync(dir).sort()
  } catch {
    return []
  }
}
