import { createHash } from 'node:crypto'
import { gzipSync } from 'node:zlib'

/** A package as a test describes it; its tarball is built at test time. */
export interface NpmPackageSpec {
  name: string
  version: string
  dependencies?: Record<string, string>
  /** Commands the package installs (`{ 'hello': 'cli.js' }`): what `npx` and `pnpm dlx` run, and what the packument lists. */
  bin?: Record<string, string>
  /** Extra files under `package/`, e.g. `{ 'index.js': 'module.exports = 42' }` (main defaults to index.js). */
  files?: Record<string, string>
}

export interface BuiltTarball {
  spec: NpmPackageSpec
  /** `name-1.0.0.tgz` (the scope dropped, as npm names tarballs). */
  filename: string
  bytes: Buffer
  /** `sha512-<base64>`, the Subresource Integrity string npm, pnpm and yarn check. */
  integrity: string
  /** sha1 hex, the legacy `dist.shasum`. */
  shasum: string
}

/** One 512-byte ustar header (POSIX.1-1988), enough for short paths and regular files. */
function tarHeader(path: string, size: number): Buffer {
  const header = Buffer.alloc(512)
  const field = (offset: number, length: number, value: string) => header.write(value, offset, length, 'ascii')
  field(0, 100, path)
  field(100, 8, '0000644\0')
  field(108, 8, '0000000\0')
  field(116, 8, '0000000\0')
  field(124, 12, `${size.toString(8).padStart(11, '0')}\0`)
  field(136, 12, `${Math.floor(Date.UTC(2024, 0, 1) / 1000).toString(8).padStart(11, '0')}\0`)
  field(148, 8, '        ')
  field(156, 1, '0')
  field(257, 6, 'ustar\0')
  field(263, 2, '00')
  let sum = 0
  for (const byte of header) sum += byte
  field(148, 8, `${sum.toString(8).padStart(6, '0')}\0 `)
  return header
}

/** A .tar.gz of regular files (npm tarballs, cargo's .crate files), each given as text or bytes. */
export function gzippedTar(files: Record<string, string | Uint8Array>): Buffer {
  const blocks: Buffer[] = []
  for (const [path, content] of Object.entries(files)) {
    const data = Buffer.from(content)
    blocks.push(tarHeader(path, data.length), data, Buffer.alloc((512 - (data.length % 512)) % 512))
  }
  blocks.push(Buffer.alloc(1024))
  return gzipSync(Buffer.concat(blocks))
}

/** A gzipped tarball with `package/package.json` and the spec's files, as `npm pack` lays it out. */
export function buildTarball(spec: NpmPackageSpec): BuiltTarball {
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: spec.name, version: spec.version, main: 'index.js', dependencies: spec.dependencies ?? {}, ...(spec.bin && { bin: spec.bin }) }, null, 2),
    'index.js': `module.exports = ${JSON.stringify(`${spec.name}@${spec.version}`)}\n`,
    ...spec.files,
  }
  const bytes = gzippedTar(Object.fromEntries(Object.entries(files).map(([path, content]) => [`package/${path}`, content])))
  return {
    spec,
    filename: `${spec.name.split('/').pop()}-${spec.version}.tgz`,
    bytes,
    integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
    shasum: createHash('sha1').update(bytes).digest('hex'),
  }
}
