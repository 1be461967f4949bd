import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Installable } from '../../../src/autoinstall/consent.js'
import type { RunPython } from '../../../src/autoinstall/python-probe.js'
import { nodeTarget, pythonTarget } from '../../../src/autoinstall/targets.js'
import type { MissingModule } from '../../../src/autoinstall/types.js'

function dir(files: Record<string, string> = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'resilient-target-'))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

// An interpreter that answers "not importable, not stdlib" to every question, and records what it was asked.
function fakePython(asked: string[][] = []): RunPython {
  return async (_python, args) => {
    asked.push(args.slice(2))
    return { exitCode: 0, stdout: '{"found": false, "namespace": false, "stdlib": false, "version": [3, 11]}\n' }
  }
}

const python = (name: string, importer?: string): MissingModule => ({ ecosystem: 'python', reported: name, name, importer, evidence: [] })

describe('pythonTarget', () => {
  it('asks the script\'s interpreter about the full dotted name and maps it', async () => {
    const asked: string[][] = []
    const target = pythonTarget('/v/bin/python', dir(), fakePython(asked))
    const candidate = await target.choose(python('google.protobuf'))
    expect(asked).toEqual([['google.protobuf']])
    expect(candidate).toMatchObject({ tier: 'allowlist', package: 'protobuf' })
    expect(target.plan(candidate as Installable)).toMatchObject({ argv: ['/v/bin/python', '-m', 'pip', 'install', '--only-binary=:all:', '--no-input', 'protobuf'], environment: '/v/bin/python' })
    expect(target.uninstall(candidate as Installable).argv).toEqual(['/v/bin/python', '-m', 'pip', 'uninstall', '--yes', 'protobuf'])
  })

  it('refuses a name that a module or package of the project shadows, beside the script or in the working directory', async () => {
    const cwd = dir({ 'numpy.py': '', 'src/app.py': '', 'src/pandas/__init__.py': '' })
    const target = pythonTarget('/v/bin/python', cwd, fakePython())
    expect(await target.choose(python('numpy'))).toMatchObject({ tier: 'refused', reason: expect.stringContaining(join(cwd, 'numpy.py')) })
    expect(await target.choose(python('pandas', 'src/app.py'))).toMatchObject({ tier: 'refused', reason: expect.stringContaining(join(cwd, 'src/pandas/__init__.py')) })
  })

  it('does not count a plain data directory as a module', async () => {
    const target = pythonTarget('/v/bin/python', dir({ 'yaml/settings.yml': 'a: 1' }), fakePython())
    expect(await target.choose(python('yaml'))).toMatchObject({ tier: 'allowlist', package: 'PyYAML' })
  })
})

describe('nodeTarget', () => {
  it('installs into the importing file\'s project with its manager, and verifies from there', async () => {
    const project = dir({ 'package.json': '{}', 'pnpm-lock.yaml': '', 'src/main.js': '' })
    const target = nodeTarget(dir())
    const missing: MissingModule = { ecosystem: 'node', reported: 'lodash/fp', name: 'lodash', importer: join(project, 'src/main.js'), evidence: [] }
    const candidate = await target.choose(missing) as Installable
    expect(candidate).toMatchObject({ tier: 'allowlist', package: 'lodash' })
    expect(target.plan(candidate)).toMatchObject({ argv: ['pnpm', 'add', '--ignore-scripts', 'lodash'], cwd: project, environment: `${project} (pnpm: the lockfile in ${project})` })
    expect(await target.verify(candidate, missing)).toMatchObject({ ok: false })
    mkdirSync(join(project, 'node_modules/lodash'), { recursive: true })
    writeFileSync(join(project, 'node_modules/lodash/package.json'), '{"name":"lodash"}')
    expect(await target.verify(candidate, missing)).toEqual({ ok: true })
  })
})
