import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { nodeTarget } from '../../../src/autoinstall/node-target.js'
import type { RunPython } from '../../../src/autoinstall/python-probe.js'
import { pythonTarget } from '../../../src/autoinstall/python-target.js'
import type { Choice, MissingModule, Wanted } from '../../../src/autoinstall/types.js'

function dir(files: Record<string, string> = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'resilient-target-'))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

// An interpreter that answers "not importable, not stdlib", a venv at /v, an empty scan; it records what it was asked.
function fakePython(asked: string[][] = []): RunPython {
  return async (_python, args) => {
    asked.push(args)
    if (args[1]?.includes('EXTERNALLY-MANAGED')) return { exitCode: 0, stdout: '{"version": [3, 11], "prefix": "/v", "venv": true, "condaEnv": false, "externallyManaged": false, "paths": []}\n' }
    if (args[1]?.includes('import ast')) return { exitCode: 0, stdout: '[]\n' }
    return { exitCode: 0, stdout: '{"found": false, "namespace": false, "stdlib": false, "version": [3, 11]}\n' }
  }
}

const python = (name: string, importer?: string): MissingModule => ({ ecosystem: 'python', reported: name, name, importer, evidence: [] })
const asWanted = (choice: Choice): Wanted => ({ module: choice.module, candidate: choice.candidate as Wanted['candidate'], requirement: (choice.candidate as Wanted['candidate']).package })

describe('pythonTarget', () => {
  it('maps the full dotted name and plans one pip command in the script\'s interpreter', async () => {
    const target = pythonTarget('/v/bin/python', dir(), { run: fakePython() })
    const [choice] = await target.gather(python('google.protobuf'), undefined)
    expect(choice!.candidate).toMatchObject({ tier: 'allowlist', package: 'protobuf' })
    expect(target.plan([asWanted(choice!)])).toMatchObject({ argv: ['/v/bin/python', '-m', 'pip', 'install', '--only-binary=:all:', '--no-input', 'protobuf'], environment: '/v/bin/python' })
    expect(await target.place()).toEqual({ kind: 'own' })
  })

  it('refuses a name a module of the project shadows: in the working directory, beside the importer, or at the project root above it', async () => {
    const cwd = dir({ 'numpy.py': '', 'src/app.py': '', 'src/pandas/__init__.py': '', 'proj/pyproject.toml': '', 'proj/serial/__init__.py': '', 'proj/tools/run.py': '' })
    const target = pythonTarget('/v/bin/python', cwd, { run: fakePython() })
    expect((await target.gather(python('numpy'), undefined))[0]!.candidate).toMatchObject({ tier: 'refused', reason: expect.stringContaining(join(cwd, 'numpy.py')) })
    expect((await target.gather(python('pandas', 'src/app.py'), undefined))[0]!.candidate).toMatchObject({ tier: 'refused', reason: expect.stringContaining(join(cwd, 'src/pandas/__init__.py')) })
    const fromSubdirectory = pythonTarget('/v/bin/python', join(cwd, 'proj/tools'), { run: fakePython() })
    expect((await fromSubdirectory.gather(python('serial', join(cwd, 'proj/tools/run.py')), join(cwd, 'proj/tools/run.py')))[0]!.candidate).toMatchObject({ tier: 'refused', reason: expect.stringContaining(join(cwd, 'proj/serial/__init__.py')) })
  })

  it('does not count a plain data directory as a module', async () => {
    const target = pythonTarget('/v/bin/python', dir({ 'yaml/settings.yml': 'a: 1' }), { run: fakePython() })
    expect((await target.gather(python('yaml'), undefined))[0]!.candidate).toMatchObject({ tier: 'allowlist', package: 'PyYAML' })
  })

  it('attaches what the project declares to the package', async () => {
    const cwd = dir({ 'requirements.txt': 'PyYAML==5.4.1\n', 'app.py': 'import yaml\n' })
    const [choice] = await pythonTarget('/v/bin/python', cwd, { run: fakePython() }).gather(python('yaml', join(cwd, 'app.py')), join(cwd, 'app.py'))
    expect(choice!.declared).toEqual({ requirement: 'PyYAML==5.4.1', origin: 'requirements.txt:1' })
  })

  it('acts only on a failure of its own interpreter', async () => {
    const target = pythonTarget('/v/bin/python', dir(), { run: fakePython() })
    const text = "ModuleNotFoundError: No module named 'yaml'\n"
    expect(await target.failure({ kind: 'uncaught', text, prefix: '/other/venv' }, { stderr: '', all: '' })).toMatchObject({ kind: 'not-installable', refusal: { reason: expect.stringMatching(/another Python \(\/other\/venv\)/) } })
    expect(await target.failure({ kind: 'uncaught', text, prefix: '/v' }, { stderr: '', all: '' })).toMatchObject({ kind: 'missing' })
  })
})

describe('nodeTarget', () => {
  it('installs into the importing file\'s project with its manager, in one command, and verifies from there', async () => {
    const project = dir({ 'package.json': '{}', 'pnpm-lock.yaml': '', 'src/main.js': '' })
    const target = nodeTarget(dir(), async () => 0)
    const missing: MissingModule = { ecosystem: 'node', reported: 'lodash/fp', name: 'lodash', importer: join(project, 'src/main.js'), evidence: [] }
    const [choice] = await target.gather(missing, undefined)
    expect(choice!.candidate).toMatchObject({ tier: 'allowlist', package: 'lodash' })
    expect(target.plan([asWanted(choice!)])).toMatchObject({ argv: ['pnpm', 'add', '--ignore-scripts', '--', 'lodash'], cwd: project, environment: `${project} (pnpm: the lockfile in ${project})` })
    expect(await target.verify(asWanted(choice!))).toMatchObject({ ok: false })
    mkdirSync(join(project, 'node_modules/lodash'), { recursive: true })
    writeFileSync(join(project, 'node_modules/lodash/package.json'), '{"name":"lodash","version":"4.17.21"}')
    expect(await target.verify(asWanted(choice!))).toEqual({ ok: true })
  })

  it('names npm\'s earlier --no-save packages again so npm keeps them, and removes only its own additions itself', async () => {
    const project = dir({ 'package.json': '{"dependencies":{}}', 'app.js': '', 'node_modules/lodash/package.json': '{"name":"lodash","version":"4.17.21"}' })
    const ran: string[][] = []
    const target = nodeTarget(project, async argv => { ran.push(argv); return 0 })
    const [choice] = await target.gather({ ecosystem: 'node', reported: 'chalk', name: 'chalk', importer: join(project, 'app.js'), evidence: [] }, undefined)
    expect(target.plan([asWanted(choice!)]).argv).toEqual(['npm', 'install', '--no-save', '--ignore-scripts', '--', 'chalk', 'lodash@4.17.21'])
    mkdirSync(join(project, 'node_modules/chalk'), { recursive: true })
    writeFileSync(join(project, 'node_modules/chalk/package.json'), '{"name":"chalk","version":"5.3.0"}')
    expect(await target.rollback(['chalk'], ['chalk'])).toMatchObject({ ok: true })
    expect(existsSync(join(project, 'node_modules/chalk'))).toBe(false)
    expect(existsSync(join(project, 'node_modules/lodash'))).toBe(true)
    expect(ran).toEqual([])
  })
})
