import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { prepareScriptHooks, type ScriptHooks } from '../../../src/autoinstall/script-hooks.js'
import { itNeeding, onDisk, pyenvPython } from '../../helpers/requirements.js'

// Real interpreters run real scripts with the hook; the outcome is read for the process that was started.
const hooksMade: ScriptHooks[] = []
afterEach(() => { for (const hooks of hooksMade.splice(0)) hooks.dispose() })

function files(tree: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'resilient-hook-'))
  for (const [path, text] of Object.entries(tree)) {
    mkdirSync(join(dir, path, '..'), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  return dir
}

async function run(ecosystem: 'python' | 'node', argv: string[], cwd: string, env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME }) {
  const hooks = prepareScriptHooks(ecosystem, env)
  hooksMade.push(hooks)
  const child = spawn(argv[0]!, argv.slice(1), { cwd, env: { ...env, ...hooks.env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  child.stdout.on('data', chunk => { stdout += chunk })
  child.stderr.resume()
  const exitCode = await new Promise<number | null>(resolve => child.on('close', resolve))
  return { exitCode, stdout, outcome: hooks.collect(child.pid) }
}

const python = (version: string) => pyenvPython(version).path

describe('the Python hook', () => {
  it('reports the uncaught error that ended the script, even with the script\'s own excepthook', async () => {
    const dir = files({ 'app.py': 'import sys\nsys.excepthook = lambda *a: print("own hook")\nimport nowhere_mod\n' })
    const { outcome } = await run('python', ['python3', 'app.py'], dir)
    expect(outcome).toMatchObject({ kind: 'uncaught', text: expect.stringMatching(/import nowhere_mod\nModuleNotFoundError: No module named 'nowhere_mod'\n$/) })
  })

  it.each([
    ['a handled ImportError, then sys.exit', 'import sys\ntry:\n    import nowhere_mod\nexcept ImportError:\n    import logging; logging.exception("x")\nsys.exit("config error")\n'],
    ['the message printed on stdout', 'import sys\nprint("ModuleNotFoundError: No module named \'yaml\'")\nsys.exit(1)\n'],
    ['a subprocess that failed on an import', 'import subprocess, sys\nsubprocess.run([sys.executable, "-c", "import nowhere_mod"])\nsys.exit(2)\n'],
    ['os._exit', 'import os\nos._exit(3)\n'],
  ])('reports nothing for %s', async (_, script) => {
    const { outcome, exitCode } = await run('python', ['python3', 'app.py'], files({ 'app.py': script }))
    expect(exitCode).not.toBe(0)
    expect(outcome.kind).toBe('clean')
  })

  it('is absent under -I (isolated mode ignores PYTHONPATH): stderr must tell then', async () => {
    expect((await run('python', ['python3', '-I', 'app.py'], files({ 'app.py': 'import nowhere_mod\n' }))).outcome).toEqual({ kind: 'absent' })
  })

  it('reports a missing main module of python -m', async () => {
    expect((await run('python', ['python3', '-m', 'nowhere_mod'], files({}))).outcome).toMatchObject({ kind: 'uncaught', text: "ModuleNotFoundError: No module named 'nowhere_mod'\n" })
  })

  it('leaves the script the environment, sys.path and modules it would have without resilient', async () => {
    const script = 'import json, os, sys\nprint(json.dumps([os.environ.get("PYTHONPATH"), sorted(k for k in os.environ if k.startswith("RESILIENT")), [p for p in sys.path if "resilient-run-" in p]]))\n'
    const dir = files({ 'app.py': script })
    expect(JSON.parse((await run('python', ['python3', 'app.py'], dir)).stdout)).toEqual([null, [], []])
    expect(JSON.parse((await run('python', ['python3', 'app.py'], dir, { PATH: process.env.PATH, PYTHONPATH: '/mine' })).stdout)).toEqual(['/mine', [], []])
  })

  itNeeding(onDisk('Debian\'s sitecustomize', '/usr/lib/python3.11/sitecustomize.py'), 'still loads the interpreter\'s own sitecustomize (Debian\'s)', async () => {
    const { stdout } = await run('python', ['/usr/bin/python3', 'app.py'], files({ 'app.py': 'import sitecustomize\nprint(sitecustomize.__file__)\n' }))
    expect(stdout.trim()).toMatch(/^\/usr\/lib\/python3\.11\/sitecustomize\.py$|^\/etc\/python3\.11\/sitecustomize\.py$/)
  })

  itNeeding(pyenvPython('2.7.18'), 'works in Python 2.7', async () => {
    expect((await run('python', [python('2.7.18'), 'app.py'], files({ 'app.py': 'import nowhere_mod\n' }))).outcome).toMatchObject({ kind: 'uncaught', text: expect.stringMatching(/ImportError: No module named nowhere_mod/) })
  })

  it('tells pytest apart, whose collection errors are reported rather than raised', async () => {
    const dir = files({ 'app.py': 'import sys, types\nsys.modules["_pytest.main"] = types.ModuleType("_pytest.main")\nsys.exit(2)\n' })
    expect((await run('python', ['python3', 'app.py'], dir)).outcome).toEqual({ kind: 'clean', pytest: true })
  })
})

describe('the Node hook', () => {
  it('reports an uncaught CommonJS or ESM module-not-found error', async () => {
    const dir = files({ 'a.js': 'require("nowhere-pkg")\n', 'b.mjs': 'import x from "nowhere-pkg"\n' })
    expect((await run('node', ['node', 'a.js'], dir)).outcome).toEqual({ kind: 'uncaught', text: `Error: Cannot find module 'nowhere-pkg'\nRequire stack:\n- ${join(dir, 'a.js')}\n` })
    expect((await run('node', ['node', 'b.mjs'], dir)).outcome).toEqual({ kind: 'uncaught', text: `Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'nowhere-pkg' imported from ${join(dir, 'b.mjs')}\n` })
  })

  it.each([
    ['the message printed by console.log', 'console.log("Cannot find module \'express\'")\nprocess.exit(1)\n'],
    ['an error the script handles', 'process.on("uncaughtException", () => process.exit(3))\nrequire("nowhere-pkg")\n'],
    ['another uncaught error', 'throw Object.assign(new Error("Cannot find module \'x\'"), { code: "E_OTHER" })\n'],
    ['a subprocess that failed on an import', 'const r = require("child_process").spawnSync(process.execPath, ["-e", "require(\'nowhere-pkg\')"])\nprocess.exit(2)\n'],
  ])('reports nothing for %s', async (_, script) => {
    const { outcome, exitCode } = await run('node', ['node', 'app.js'], files({ 'app.js': script }))
    expect(exitCode).not.toBe(0)
    expect(outcome).toEqual({ kind: 'clean' })
  })

  it('keeps the hook through a launcher under node_modules, and reports the script behind it', async () => {
    const dir = files({
      'node_modules/launch/cli.js': 'const r = require("child_process").spawnSync(process.execPath, process.argv.slice(2), { stdio: "inherit" })\nprocess.exit(r.status)\n',
      'app.js': 'require("nowhere-pkg")\n',
    })
    expect((await run('node', ['node', 'node_modules/launch/cli.js', 'app.js'], dir)).outcome).toMatchObject({ kind: 'uncaught', text: expect.stringMatching(/^Error: Cannot find module 'nowhere-pkg'/) })
  })

  it('gives the script and its subprocesses NODE_OPTIONS as the user set it', async () => {
    const script = 'const child = require("child_process").spawnSync(process.execPath, ["-p", "process.env.NODE_OPTIONS + \\" \\" + Object.keys(process.env).filter(k => k.startsWith(\\"RESILIENT\\")).length"], { encoding: "utf8" })\nconsole.log(JSON.stringify([process.env.NODE_OPTIONS ?? null, child.stdout.trim()]))\n'
    const dir = files({ 'app.js': script })
    expect(JSON.parse((await run('node', ['node', 'app.js'], dir)).stdout)).toEqual([null, 'undefined 0'])
    expect(JSON.parse((await run('node', ['node', 'app.js'], dir, { PATH: process.env.PATH, NODE_OPTIONS: '--no-warnings' })).stdout)).toEqual(['--no-warnings', '--no-warnings 0'])
  })

  it('is absent where no hook ran', () => {
    const hooks = prepareScriptHooks('node', {})
    hooksMade.push(hooks)
    expect(hooks.collect(12345)).toEqual({ kind: 'absent' })
  })
})
