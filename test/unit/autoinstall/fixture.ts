import { readFileSync } from 'node:fs'

/** A captured output under fixtures/, without its first line (the comment saying how it was captured). */
export function fixture(name: string): string {
  return readFileSync(new URL(`fixtures/${name}.txt`, import.meta.url), 'utf8').split('\n').slice(1).join('\n')
}
