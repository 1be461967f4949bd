import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Every PEM certificate in `folders`, as go reads SSL_CERT_DIR (crypto/x509/root_unix.go: each file of each folder,
 * what is not PEM skipped; a folder that cannot be read skipped too).
 */
export function certificatesIn(folders: readonly string[]): string[] {
  const found: string[] = []
  for (const folder of folders) {
    let names: string[]
    try {
      names = readdirSync(folder)
    } catch {
      continue
    }
    for (const name of names) {
      try {
        const text = readFileSync(join(folder, name), 'utf8')
        found.push(...text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [])
      } catch {
        // A folder or a file that cannot be read, as go skips it.
      }
    }
  }
  return found
}
