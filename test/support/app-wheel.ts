import { createHash } from 'node:crypto'
import { strToU8, zipSync } from 'fflate'
import type { BuiltWheel } from '../../src/demo/wheel.js'

function recordHash(data: Uint8Array): string {
  return `sha256=${createHash('sha256').update(data).digest('base64url')}`
}

/**
 * A pure-Python wheel with a console script `<name>` that prints `<name> <version>`: what pipx needs (it refuses a
 * package without an app). Built in memory at test time, served by the fake PyPI server like buildWheel's.
 */
export function buildAppWheel(name: string, version: string, options: { paddingBytes?: number } = {}): BuiltWheel {
  const module = name.toLowerCase().replace(/[-.]/g, '_')
  const distInfo = `${module}-${version}.dist-info`
  const files: Record<string, Uint8Array> = {
    [`${module}/__init__.py`]: strToU8(`def main():\n    print(${JSON.stringify(`${name} ${version}`)})\n`),
    [`${distInfo}/METADATA`]: strToU8(`Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\nSummary: an app built by resilient's tests\n\n`),
    [`${distInfo}/WHEEL`]: strToU8('Wheel-Version: 1.0\nGenerator: resilient-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n\n'),
    [`${distInfo}/entry_points.txt`]: strToU8(`[console_scripts]\n${name} = ${module}:main\n`),
  }
  // Incompressible bytes of the given size, so that a download can break part-way (fixed seed: the same wheel every run).
  if (options.paddingBytes) {
    const padding = new Uint8Array(options.paddingBytes)
    for (let at = 0; at < padding.length; at++) padding[at] = (Math.imul(at, 2654435761) >>> 13) & 255
    files[`${module}/padding.bin`] = padding
  }
  const record = Object.entries(files).map(([path, data]) => `${path},${recordHash(data)},${data.length}`)
  files[`${distInfo}/RECORD`] = strToU8([...record, `${distInfo}/RECORD,,`, ''].join('\n'))
  const bytes = Buffer.from(zipSync(files, { level: 0, mtime: new Date('2020-01-01') }))
  return { name, version, filename: `${module}-${version}-py3-none-any.whl`, bytes, sha256: createHash('sha256').update(bytes).digest('hex') }
}
