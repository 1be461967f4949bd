import { findUserKnobs } from '../../../src/tools/knobs.js'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { configSchema } from '../../../src/config/schema.js'
import { formatCommand } from '../../../src/tools/argv/format-command.js'
import { buildCommand, planSources } from '../../helpers/plan-helpers.js'
import type { ToolAdapter } from '../../../src/tools/types.js'
import { uv, uvx } from '../../../src/tools/uv.js'
import { contextIn, folderWith, rewrite } from '../../helpers/tool-cases.js'

const M = 'https://mirror.test/simple'
const _ = (line: string, expected: string, options: { bypassCache?: boolean } = {}) => () =>
  expect(rewrite(line.startsWith('uvx') ? uvx : uv, line, M, options)).toBe(expected)

describe('uv: rewriting', () => {
  it('sets the default index for uv pip install', _('uv pip install torch', `UV_DEFAULT_INDEX=${M} uv pip install torch`))
  it('never touches its timeout or retries', _('uv pip install torch', `UV_DEFAULT_INDEX=${M} uv pip install torch`))
  it('handles uv pip sync', _('uv pip sync requirements.txt', `UV_DEFAULT_INDEX=${M} uv pip sync requirements.txt`))
  it('handles uv pip compile', _('uv pip compile -o req.txt req.in', `UV_DEFAULT_INDEX=${M} uv pip compile -o req.txt req.in`))
  it('handles uv sync', _('uv sync', `UV_DEFAULT_INDEX=${M} uv sync`))
  it('handles uv lock', _('uv lock --upgrade', `UV_DEFAULT_INDEX=${M} uv lock --upgrade`))
  it('uses UV_INDEX_URL for uv add (not written into pyproject.toml)', _('uv add httpx', `UV_INDEX_URL=${M} uv add httpx`))
  it('replaces the --index-url of uv add', _('uv add -i https://pypi.org/simple httpx', `uv add -i ${M} httpx`))
  it('replaces a --default-index given on the command line', _('uv sync --default-index https://pypi.org/simple', `uv sync --default-index ${M}`))
  it('replaces --default-index=URL', _('uv lock --default-index=https://pypi.org/simple', `uv lock --default-index=${M}`))
  it('overrides -i with the environment (a default index beats --index-url)', _('uv pip install -i https://pypi.org/simple x', `UV_DEFAULT_INDEX=${M} uv pip install -i https://pypi.org/simple x`))
  it('handles uv tool install', _('uv tool install ruff', `UV_DEFAULT_INDEX=${M} uv tool install ruff`))
  it('handles uv run --with', _('uv run --with rich script.py', `UV_DEFAULT_INDEX=${M} uv run --with rich script.py`))
  it('handles uvx', _('uvx ruff check .', `UV_DEFAULT_INDEX=${M} uvx ruff check .`))
  it('leaves the program options of uvx alone', _('uvx --default-index https://pypi.org/simple tool --default-index keep',
    `uvx --default-index ${M} tool --default-index keep`))
  it('bypasses the cache by environment', _('uvx ruff', `UV_DEFAULT_INDEX=${M} UV_NO_CACHE=1 uvx ruff`, { bypassCache: true }))
  it('leaves uv run without --with alone', _('uv run pytest -x', 'uv run pytest -x'))
  it('leaves uv pip list alone', _('uv pip list', 'uv pip list'))
  it('rewrites uv pip list --outdated', _('uv pip list --outdated', `UV_DEFAULT_INDEX=${M} uv pip list --outdated`))
  it('leaves publish alone', _('uv publish dist/p.whl', 'uv publish dist/p.whl'))
  it('leaves --offline alone', _('uv sync --offline', 'uv sync --offline'))
  it('leaves --help alone', _('uv pip install --help', 'uv pip install --help'))
  it('handles python -m uv', () => {
    const source = { id: 'm', url: M, kind: 'mirror' as const, label: 'm' }
    const invocation = { tool: 'uv' as const, adapter: uv, launcher: ['python3', '-m', 'uv'], args: ['sync', '--default-index', 'https://pypi.org/simple'], executable: '/usr/bin/python3' }
    const command = buildCommand({ invocation, config: configSchema.parse({}), userKnobs: true }, source, false)
    expect(formatCommand(command)).toBe(`python3 -m uv sync --default-index ${M}`)
  })
})

describe('uv: classify', () => {
  const classify = (args: string, adapter: ToolAdapter = uv) => adapter.classify(args.split(' ').filter(Boolean))
  it.each(['pip install x', 'pip sync r.txt', 'pip compile r.in', 'add x', 'remove x', 'lock', 'sync', 'tree', 'export', 'build',
    'tool install x', 'tool run x', 'tool upgrade x', '--directory p sync', '-q add x', 'run --with x s.py', 'venv --seed', 'pip list --outdated'])(
    '%s is network', args => expect(classify(args)).toBe('network'))
  it.each(['publish', 'auth login pypi.corp.example'])('%s is publish', args => expect(classify(args)).toBe('publish'))
  it.each(['', '--version', 'pip list', 'pip freeze', 'pip show x', 'pip uninstall x', 'cache clean', 'run script.py', 'venv',
    'sync --offline', 'add --help', 'python list', 'self update', 'run -- --with x'])('"%s" is local', args => expect(classify(args)).toBe('local'))
  it('takes uvx as tool run', () => expect(classify('ruff check', uvx)).toBe('network'))
  it('resolves uvx by its executable', async () => {
    expect((await uv.resolveVariant('/usr/local/bin/uvx')).name).toBe('uvx')
    expect((await uv.resolveVariant('/usr/local/bin/uv')).name).toBe('uv')
  })
})

describe('uv: the user index choice', () => {
  const project = folderWith({})
  const index = (args: string, env: NodeJS.ProcessEnv = {}, cwd = project, home?: string, adapter: ToolAdapter = uv) => adapter.findUserIndex(contextIn(cwd, args, env, home))
  it.each([
    ['pip install --default-index https://a.test/simple x', 'https://a.test/simple', '--default-index'],
    ['pip install --default-index=https://a.test/simple x', 'https://a.test/simple', '--default-index'],
    ['pip install -i https://a.test/simple x', 'https://a.test/simple', '-i'],
    ['pip install -ihttps://a.test/simple x', 'https://a.test/simple', '-i'],
    ['pip install -i=https://a.test/simple x', 'https://a.test/simple', '-i'],
    ['add --index-url https://a.test/simple x', 'https://a.test/simple', '--index-url'],
    ['pip install --no-index x', 'none', '--no-index'],
  ])('%s', (args, url, origin) => expect(index(args)).toEqual({ url, origin }))
  it('puts --default-index before --index-url, as uv does', () =>
    expect(index('sync -i https://b.test/simple --default-index https://a.test/simple')?.url).toBe('https://a.test/simple'))
  it('reads UV_DEFAULT_INDEX before -i and UV_INDEX_URL', () => {
    expect(index('sync -i https://b.test/simple', { UV_DEFAULT_INDEX: 'https://a.test/simple' })).toEqual({ url: 'https://a.test/simple', origin: 'UV_DEFAULT_INDEX' })
    expect(index('sync', { UV_INDEX_URL: 'https://c.test/simple' })).toEqual({ url: 'https://c.test/simple', origin: 'UV_INDEX_URL' })
  })
  it('does not report additional indexes: uv asks them first, the mirror only replaces the default', () =>
    expect(index('pip install --index https://extra.test/simple x', { UV_INDEX: 'https://e.test/simple' })).toBeNull())
  it('does not read the options of the program uvx starts', () => expect(index('ruff -i https://x.test/simple', {}, project, undefined, uvx)).toBeNull())
  it('reads [[tool.uv.index]] default = true from pyproject.toml above the current folder', () => {
    const root = folderWith({ 'pyproject.toml': '[project]\nname = "p"\n[[tool.uv.index]]\nname = "corp"\nurl = "https://corp.test/simple"\ndefault = true\n', 'src/.keep': '' })
    expect(index('sync', {}, join(root, 'src'))).toEqual({ url: 'https://corp.test/simple', origin: `${join(root, 'pyproject.toml')} [[index]] default = true` })
  })
  it('puts a config default index before -i, as uv does', () => {
    const root = folderWith({ 'uv.toml': '[[index]]\nurl = "https://corp.test/simple"\ndefault = true\n' })
    expect(index('sync -i https://b.test/simple', {}, root)?.url).toBe('https://corp.test/simple')
  })
  it('reads [tool.uv] index-url, and [tool.uv.pip] for uv pip only', () => {
    const root = folderWith({ 'pyproject.toml': '[tool.uv]\nindex-url = "https://top.test/simple"\n[tool.uv.pip]\nindex-url = "https://pip.test/simple"\n' })
    expect(index('sync', {}, root)?.url).toBe('https://top.test/simple')
    expect(index('pip install x', {}, root)?.url).toBe('https://pip.test/simple')
  })
  it('skips a pyproject.toml without [tool.uv] and prefers uv.toml in the same folder', () => {
    const root = folderWith({ 'uv.toml': 'index-url = "https://uvtoml.test/simple"\n', 'pyproject.toml': '[tool.uv]\nindex-url = "https://py.test/simple"\n', 'sub/pyproject.toml': '[project]\nname = "s"\n' })
    expect(index('sync', {}, join(root, 'sub'))?.url).toBe('https://uvtoml.test/simple')
  })
  it('reads --directory', () => {
    const root = folderWith({ 'app/uv.toml': 'index-url = "https://dir.test/simple"\n' })
    expect(index('--directory app sync', {}, root)?.url).toBe('https://dir.test/simple')
  })
  it('reads the user uv.toml', () => {
    const home = folderWith({ '.config/uv/uv.toml': '[[index]]\nurl = "https://home.test/simple"\ndefault = true\n' })
    expect(index('sync', {}, project, home)?.url).toBe('https://home.test/simple')
    const xdg = folderWith({ 'uv/uv.toml': 'no-index = true\n' })
    expect(index('sync', { XDG_CONFIG_HOME: xdg })?.url).toBe('none')
  })
  it('reads --config-file and UV_CONFIG_FILE instead of the other files, and nothing with --no-config', () => {
    const files = folderWith({ 'a.toml': 'index-url = "https://a.test/simple"\n', 'uv.toml': 'index-url = "https://project.test/simple"\n' })
    expect(index(`sync --config-file ${join(files, 'a.toml')}`, {}, files)?.url).toBe('https://a.test/simple')
    expect(index('sync', { UV_CONFIG_FILE: join(files, 'a.toml') }, files)?.url).toBe('https://a.test/simple')
    expect(index('sync --no-config', {}, files)).toBeNull()
    expect(index('sync', { UV_NO_CONFIG: '1' }, files)).toBeNull()
  })
  it('reads --index-url lines of requirement files', () => {
    const root = folderWith({ 'req.txt': '--index-url https://req.test/simple\nrequests\n' })
    expect(index('pip install -r req.txt', {}, root)).toEqual({ url: 'https://req.test/simple', origin: `${join(root, 'req.txt')}:1` })
  })
  it('reports the registry uv.lock pins with --frozen (or UV_FROZEN)', () => {
    const lock = '[[package]]\nname = "a"\nsource = { registry = "https://pypi.org/simple" }\n[[package]]\nname = "b"\nsource = { registry = "https://corp.test/simple" }\n'
    const root = folderWith({ 'pyproject.toml': '[project]\nname = "p"\n', 'uv.lock': lock })
    expect(index('sync --frozen', {}, root)?.url).toBe('https://corp.test/simple')
    expect(index('sync', { UV_FROZEN: '1' }, root)?.url).toBe('https://corp.test/simple')
    expect(index('sync', {}, root)).toBeNull()
  })
})

describe('uv: when no mirror can help', () => {
  const reason = (args: string, env: NodeJS.ProcessEnv = {}, cwd = folderWith({})) => uv.noMirrorReason(contextIn(cwd, args, env))
  it('says so for --frozen', () => expect(reason('sync --frozen')).toMatch(/uv\.lock/))
  it('says so for python install', () => expect(reason('python install 3.12')).toMatch(/GitHub/))
  it('says so for uv add with a default index it would persist', () => {
    expect(reason('add x --default-index https://pypi.org/simple')).toMatch(/pyproject\.toml/)
    expect(reason('add x', { UV_DEFAULT_INDEX: 'https://pypi.org/simple' })).toMatch(/UV_DEFAULT_INDEX/)
  })
  it('lets uv add use a mirror otherwise', () => expect(reason('add x -i https://pypi.org/simple')).toBeUndefined())
  it('plans no mirror for --frozen', () => {
    const context = contextIn(folderWith({}), 'sync --frozen')
    const plan = planSources({ adapter: uv, config: configSchema.parse({}), userIndex: uv.findUserIndex(context), context })
    expect(plan.fallbacks).toEqual([])
    expect(plan.noSwitchReason).toMatch(/--frozen/)
  })
  it('never replaces a private default index', () => {
    const context = contextIn(folderWith({}), 'pip install --default-index https://pypi.corp.example/simple x')
    const plan = planSources({ adapter: uv, config: configSchema.parse({}), userIndex: uv.findUserIndex(context), context })
    expect(plan.fallbacks).toEqual([])
    expect(plan.primary.kind).toBe('private')
  })
  it('plans the catalog mirrors for the public default', () => {
    const context = contextIn(folderWith({}), 'pip install x')
    const plan = planSources({ adapter: uv, config: configSchema.parse({}), userIndex: uv.findUserIndex(context), context })
    expect(plan.fallbacks.length).toBeGreaterThan(2)
  })
})

describe('uv: timeouts', () => {
  it('respects the user own timeout', () => expect(findUserKnobs(uv, contextIn(folderWith({}), 'sync', { UV_HTTP_TIMEOUT: '60' }))).toEqual({ userSet: true, origin: 'UV_HTTP_TIMEOUT' }))
  it('tunes otherwise', () => expect(findUserKnobs(uv, contextIn(folderWith({}), 'sync'))).toEqual({ userSet: false }))
})
