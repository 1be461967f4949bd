import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findScriptFile, resolveScriptEnvironment, shebangInterpreter } from '../../../src/autoinstall/script-environment.js'

// Real executables in a temporary bin directory, found through PATH the way a shell finds them.
function bin(files: Record<string, string>): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(join(tmpdir(), 'resilient-bin-'))
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true })
    writeFileSync(join(dir, name), text)
    chmodSync(join(dir, name), 0o755)
  }
  return { dir, env: { PATH: `${join(dir, 'bin')}:${dir}` } }
}

describe('shebangInterpreter', () => {
  const env = { PATH: '/nowhere' }
  it('reads a direct path', () => expect(shebangInterpreter('#!/v/bin/python3.11\nimport x', env)).toBe('/v/bin/python3.11'))
  it('reads env with options', () => expect(shebangInterpreter('#!/usr/bin/env -S python3 -u\n', env)).toBe('python3'))
  it("reads pip's long-path form", () => expect(shebangInterpreter("#!/bin/sh\n'''exec' \"/very long/venv/bin/python\" \"$0\" \"$@\"\n' '''\n", env)).toBe('/very long/venv/bin/python'))
  it('has none without a shebang', () => expect(shebangInterpreter('import x\n', env)).toBeUndefined())
})

describe('resolveScriptEnvironment', () => {
  it('takes the interpreter the command names', async () => {
    const { dir, env } = bin({ 'bin/python3': '#!/bin/sh\n' })
    expect(await resolveScriptEnvironment(['python3', 'app.py'], env)).toEqual({ ecosystem: 'python', python: join(dir, 'bin/python3'), origin: 'the command', interpreterAt: 0 })
    expect(await resolveScriptEnvironment([join(dir, 'bin/python3'), '-m', 'pkg'], env)).toMatchObject({ ecosystem: 'python', python: join(dir, 'bin/python3') })
  })

  it("takes a console script's shebang interpreter (pytest in a venv)", async () => {
    const { dir, env } = bin({ 'venv/bin/python': '', 'venv/bin/pytest': '' })
    writeFileSync(join(dir, 'venv/bin/pytest'), `#!${join(dir, 'venv/bin/python')}\nimport sys\nfrom pytest import console_main\n`)
    const resolved = await resolveScriptEnvironment([join(dir, 'venv/bin/pytest'), '-q'], env)
    expect(resolved).toMatchObject({ ecosystem: 'python', python: join(dir, 'venv/bin/python'), origin: expect.stringMatching(/shebang/) })
  })

  it('follows a pyenv shim to the real program', async () => {
    const { dir, env } = bin({ 'shims/pytest': '#!/usr/bin/env bash\nexec "/root/.pyenv/libexec/pyenv" exec "$program" "$@"\n', 'real/pytest': '', 'real/python3.12': '' })
    writeFileSync(join(dir, 'real/pytest'), `#!${join(dir, 'real/python3.12')}\n`)
    const asked: string[] = []
    const resolved = await resolveScriptEnvironment([join(dir, 'shims/pytest')], env, async name => { asked.push(name); return join(dir, 'real/pytest') })
    expect(asked).toEqual(['pytest'])
    expect(resolved).toMatchObject({ ecosystem: 'python', python: join(dir, 'real/python3.12') })
  })

  it('recognises Node commands and Node shebangs', async () => {
    const { env } = bin({ 'bin/node': '', 'bin/npx': '', 'bin/vitest': '#!/usr/bin/env node\n' })
    expect(await resolveScriptEnvironment(['node', 'app.js'], env)).toMatchObject({ ecosystem: 'node' })
    expect(await resolveScriptEnvironment(['npx', 'tsx', 'x.ts'], env)).toMatchObject({ ecosystem: 'node' })
    expect(await resolveScriptEnvironment(['vitest'], env)).toMatchObject({ ecosystem: 'node', origin: expect.stringMatching(/shebang/) })
  })

  it('follows env(1) to the command it runs, on the PATH it sets', async () => {
    const { dir, env } = bin({ 'bin/env': '', 'other/python3': '' })
    expect(await resolveScriptEnvironment(['env', 'python3', 'app.py'], { PATH: `${join(dir, 'other')}:${env.PATH}` })).toMatchObject({ ecosystem: 'python', python: join(dir, 'other/python3'), interpreterAt: 1 })
    expect(await resolveScriptEnvironment(['env', 'DEBUG=1', `PATH=${join(dir, 'other')}`, '-u', 'X', 'python3', 'app.py'], env)).toMatchObject({ ecosystem: 'python', python: join(dir, 'other/python3'), interpreterAt: 5 })
    expect(await resolveScriptEnvironment(['env', '-S', 'python3 -u'], env)).toMatchObject({ ecosystem: undefined, reason: expect.stringMatching(/cannot tell which program `env -S` runs/) })
  })

  it('says, for runners that choose an environment, that it cannot see it and how to name it', async () => {
    const { env } = bin({ 'bin/uv': '', 'bin/poetry': '' })
    expect(await resolveScriptEnvironment(['uv', 'run', 'app.py'], env)).toMatchObject({ ecosystem: undefined, reason: expect.stringMatching(/`uv run` chooses the environment itself, and resilient cannot see which one/), hint: expect.stringContaining('resilient run -- .venv/bin/python app.py') })
    expect(await resolveScriptEnvironment(['poetry', 'run', 'python', 'app.py', '-v'], env)).toMatchObject({ hint: expect.stringContaining('resilient run -- "$(poetry env info --path)/bin/python" app.py -v') })
  })

  it('will not guess for unknown programs, or missing ones', async () => {
    const { env } = bin({ 'bin/tool': '#!/bin/sh\necho hi\n' })
    expect(await resolveScriptEnvironment(['tool'], env)).toMatchObject({ ecosystem: undefined, reason: expect.stringMatching(/cannot tell/) })
    expect(await resolveScriptEnvironment(['nothere'], env)).toMatchObject({ ecosystem: undefined, reason: 'nothere was not found on PATH' })
  })
})

describe('findScriptFile', () => {
  it('finds the script file a command runs, and none for inline code', () => {
    const { dir } = bin({ 'app.py': '', 'x.ts': '' })
    expect(findScriptFile(['python3', '-u', 'app.py', 'x.ts'], dir)).toBe(join(dir, 'app.py'))
    expect(findScriptFile(['npx', 'tsx', 'x.ts'], dir)).toBe(join(dir, 'x.ts'))
    expect(findScriptFile(['python3', '-c', 'import x', 'app.py'], dir)).toBeUndefined()
    expect(findScriptFile(['python3', 'missing.py'], dir)).toBeUndefined()
  })
})
