import { createHash } from 'node:crypto'
import { strToU8, zipSync } from 'fflate'

/** A wheel built in memory: what a local index serves, with the hash pip checks. */
export interface BuiltWheel {
  name: string
  version: string
  filename: string
  bytes: Buffer
  sha256: string
}

function recordHash(data: Uint8Array): string {
  return `sha256=${createHash('sha256').update(data).digest('base64url')}`
}

/** The normalised project name of PEP 503. */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-')
}

/**
 * Builds a minimal, valid pure-Python wheel (PEP 427): a module that prints its name, METADATA, WHEEL and RECORD.
 * `paddingBytes` adds an incompressible data file, for download-speed tests. `module` is the import name it provides
 * when that is not the project's (`yaml` for PyYAML); a dotted one (`google.protobuf`) has no `__init__.py` above its
 * last part, so its parents are namespace packages, as in the real protobuf wheel.
 */
export function buildWheel(name: string, version: string, options: { paddingBytes?: number; requires?: string[]; module?: string } = {}): BuiltWheel {
  const module = name.toLowerCase().replace(/[-.]/g, '_')
  const packageDir = (options.module ?? module).replace(/\./g, '/')
  const distInfo = `${module}-${version}.dist-info`
  const files: Record<string, Uint8Array> = {
    [`${packageDir}/__init__.py`]: strToU8(`__version__ = ${JSON.stringify(version)}\nNAME = ${JSON.stringify(name)}\n`),
    [`${distInfo}/METADATA`]: strToU8([
      'Metadata-Version: 2.1', `Name: ${name}`, `Version: ${version}`, 'Summary: built by resilient for a local test index',
      ...(options.requires ?? []).map(requirement => `Requires-Dist: ${requirement}`), '', '',
    ].join('\n')),
    [`${distInfo}/WHEEL`]: strToU8('Wheel-Version: 1.0\nGenerator: resilient-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n\n'),
  }
  if (options.paddingBytes) {
    const padding = new Uint8Array(options.paddingBytes)
    // A cheap xorshift fills it: random bytes do not compress, so the wheel really is that big.
    let state = 0x9e3779b9
    for (let i = 0; i < padding.length; i++) {
      state ^= state << 13; state ^= state >>> 17; state ^= state << 5
      padding[i] = state & 0xff
    }
    files[`${packageDir}/padding.bin`] = padding
  }
  const record = Object.entries(files).map(([path, data]) => `${path},${recordHash(data)},${data.length}`)
  files[`${distInfo}/RECORD`] = strToU8([...record, `${distInfo}/RECORD,,`, ''].join('\n'))
  const bytes = Buffer.from(zipSync(files, { level: 0, mtime: new Date('2020-01-01') }))
  return { name, version, filename: `${module}-${version}-py3-none-any.whl`, bytes, sha256: createHash('sha256').update(bytes).digest('hex') }
}
