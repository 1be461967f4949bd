import { rmSync } from 'node:fs'
import { writeNewFile } from '../files/private-files.js'
import type { CommandLine } from '../tools/types.js'

/**
 * Files an adapter needs for one attempt only (pixi's mirror config): written before, removed after, inside the
 * run's private directory, created exclusively without following links (src/files/private-files.ts).
 */
export function writeAttemptFiles(command: CommandLine): string[] {
  const written: string[] = []
  try {
    for (const file of command.files ?? []) {
      writeNewFile(file.path, file.content)
      written.push(file.path)
    }
  } catch (error) {
    for (const path of written) rmSync(path, { force: true })
    throw error
  }
  return written
}
