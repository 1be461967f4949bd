import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startPypiServer } from '../../../src/demo/pypi-server.js'
import { buildWheel, type BuiltWheel } from '../../../src/demo/wheel.js'
import { which } from '../../../src/tools/argv/which.js'
import { buildAppWheel } from '../app-wheel.js'
import { pickVersion, type Subject, type Want } from './subject.js'

const VERSIONS = ['1.0', '2.0'] as const
// 1 MB of padding in each wheel: a download that breaks at 80 % has something to resume, and its bytes dwarf the pages.
const PADDING = 1_000_000
let appWheels: readonly [BuiltWheel, BuiltWheel] | undefined
let libraryWheels: readonly [BuiltWheel, BuiltWheel] | undefined
const apps = () => (appWheels ??= [buildAppWheel('demo-app', '1.0', { paddingBytes: PADDING }), buildAppWheel('demo-app', '2.0', { paddingBytes: PADDING })])
const libraries = () => (libraryWheels ??= [buildWheel('demo-pkg', '1.0', { paddingBytes: PADDING }), buildWheel('demo-pkg', '2.0', { paddingBytes: PADDING })])

/** What the three have in common: a PEP 503 index of two versions of one project, its page, its files. */
function pep503(project: string, wheels: () => readonly [BuiltWheel, BuiltWheel]): Pick<Subject, 'ecosystem' | 'page' | 'privateName' | 'fileBytes' | 'isFile' | 'start' | 'expected' | 'readTimeout'> {
  return {
    ecosystem: 'pypi',
    page: `/simple/${project}/`,
    privateName: 'privpkg',
    get fileBytes() { return wheels()[0].bytes.length },
    isFile: path => path.startsWith('/files/'),
    start: ({ role, fault, lacksNewest }) => {
      if (role === 'private') throw new Error(`${project}: no private source case`)
      return startPypiServer({ wheels: [...wheels()], fault, missing: lacksNewest ? [`${project}==2.0`] : [] })
    },
    expected: (want, version) => [`${project}==${pickVersion(want, version, VERSIONS)}`],
    readTimeout: [],
  }
}

/** The version a lockfile records for `project` (pdm.lock and poetry.lock both write `name = ...` then `version = ...`). */
function locked(file: string, project: string): string[] {
  const version = existsSync(file) ? new RegExp(`name = "${project}"\\nversion = "([^"]+)"`).exec(readFileSync(file, 'utf8'))?.[1] : undefined
  return version ? [`${project}==${version}`] : []
}
/** `project==1.0` (or 2.0), or the project alone when no version is asked. */
const spec = (project: string, want: Want) => want.version === 'any' ? project : `${project}==${pickVersion(want, 'oldest', VERSIONS)}`
// Why neither can win what the relay wins for the others (docs/relay.md, "Which tools, and what each cannot carry").
const PDM_NOT_RELAYED = 'pdm 2.2 writes each file\'s download URL into pdm.lock, so `pdm lock` does not go through the relay'
const POETRY_NEVER_RELAYED = 'poetry is never relayed nor sent to a mirror: no per-run setting points it at another index (a [[tool.poetry.source]] would change pyproject.toml and poetry.lock)'
// No desktop keyring: pdm and poetry would ask it for the index's credentials.
const NO_KEYRING = { PYTHON_KEYRING_BACKEND: 'keyring.backends.null.Keyring' }

let shared: string | undefined
/**
 * pipx's shared libraries (a venv with pip, which every app's venv uses), made once, as a person's first pipx run
 * makes them, with the Python pipx itself runs on (its script's `#!`): each run would otherwise make its own and ask
 * the index to upgrade pip, setuptools and wheel, a second install on every row that the matrix is not about.
 */
function sharedLibraries(): string {
  if (shared) return shared
  const python = /^#!(\S+)/.exec(readFileSync(which('pipx', process.env) ?? 'pipx', 'utf8').slice(0, 200))?.[1] ?? 'python3'
  shared = mkdtempSync(join(tmpdir(), 'differential-pipx-shared-'))
  execFileSync(python, ['-m', 'venv', shared], { stdio: 'ignore' })
  return shared
}

/** `pipx install` of an app, the index in PIP_INDEX_URL (which pipx passes to pip and records nowhere); its home in the working directory. */
export const pipx: Subject = {
  tool: 'pipx',
  ...pep503('demo-app', apps),
  command: (_index, _workdir, { want, extra }) => ['pipx', 'install', ...extra, spec('demo-app', want)],
  env: (index, workdir) => ({ PIP_INDEX_URL: index, PIPX_HOME: join(workdir, 'pipx'), PIPX_BIN_DIR: join(workdir, 'bin'), PIPX_SHARED_LIBS: sharedLibraries() }),
  // The version pipx recorded for the app it installed.
  installed: workdir => {
    const metadata = join(workdir, 'pipx', 'venvs', 'demo-app', 'pipx_metadata.json')
    if (!existsSync(metadata)) return []
    const { main_package: main } = JSON.parse(readFileSync(metadata, 'utf8')) as { main_package: { package: string; package_version: string } }
    return [`${main.package}==${main.package_version}`]
  },
  ownTimeout: ['--pip-args=--timeout 3 --retries 0'],
  notWon: { 'one-503': 'pip, which pipx runs, asks again at once after a 503 (its first retry waits nothing): plain pipx loses nothing to it' },
}

/** `pdm lock` of a project that depends on the library, the index in PDM_PYPI_URL. */
export const pdm: Subject = {
  tool: 'pdm',
  ...pep503('demo-pkg', libraries),
  command: (_index, workdir, { want, extra }) => {
    writeFileSync(join(workdir, 'pyproject.toml'), `[project]\nname = "demo-project"\nversion = "0.1.0"\nrequires-python = ">=3.9"\ndependencies = ["${spec('demo-pkg', want)}"]\n`)
    return ['pdm', 'lock', ...extra]
  },
  // No update check: pdm 2.2 asks the index for its own page after the command (core.py check_update).
  env: index => ({ PDM_PYPI_URL: index, PDM_CHECK_UPDATE: 'false', PDM_USE_VENV: 'false', ...NO_KEYRING }),
  installed: workdir => locked(join(workdir, 'pdm.lock'), 'demo-pkg'),
  ownTimeout: [],
  notWon: {
    'one-503': `${PDM_NOT_RELAYED}; pdm asks again at once after a 503 itself (unearth's session: 5 retries, the first without a wait)`,
    'break-80': `${PDM_NOT_RELAYED}: the restart loop fetches the whole file again, from the mirror`,
  },
}

/**
 * `poetry lock` of a project whose only source is the index (a primary source in pyproject.toml: poetry has no other
 * way to use an index but PyPI), in the Python poetry runs on: `lock` installs nothing, so no virtualenv is made.
 */
export const poetry: Subject = {
  tool: 'poetry',
  ...pep503('demo-pkg', libraries),
  command: (index, workdir, { want, extra }) => {
    writeFileSync(join(workdir, 'pyproject.toml'), [
      '[tool.poetry]', 'name = "demo-project"', 'version = "0.1.0"', 'description = ""', 'authors = ["t <t@example.com>"]', '',
      '[tool.poetry.dependencies]', 'python = "^3.9"', `demo-pkg = "${want.version === 'any' ? '*' : pickVersion(want, 'oldest', VERSIONS)}"`, '',
      '[[tool.poetry.source]]', 'name = "corp"', `url = "${index}"`, 'default = true', '',
    ].join('\n'))
    return ['poetry', 'lock', ...extra]
  },
  env: () => ({ POETRY_VIRTUALENVS_CREATE: 'false', ...NO_KEYRING }),
  installed: workdir => locked(join(workdir, 'poetry.lock'), 'demo-pkg'),
  ownTimeout: [],
  notWon: {
    'one-503': `${POETRY_NEVER_RELAYED}; poetry asks again itself after a 503 (0.5 s later, utils/authenticator.py)`,
    'dead': `${POETRY_NEVER_RELAYED}: with its only index dead there is nothing else to ask`,
    'break-80': `${POETRY_NEVER_RELAYED}: resilient runs poetry again on its index, which fetches the whole file again (poetry 1.3 keeps a download cut short without noticing, urllib3 1.x not checking Content-Length, and fails on it: "File is not a zip file")`,
  },
}
