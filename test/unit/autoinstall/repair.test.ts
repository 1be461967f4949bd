import { describe, expect, it } from 'vitest'
import { repairScript, type RepairDeps, type RepairSettings, type ScriptRun } from '../../../src/autoinstall/repair.js'
import type { Target } from '../../../src/autoinstall/target.js'
import type { Answer } from '../../../src/autoinstall/consent.js'
import type { Choice, MissingModule, Placement } from '../../../src/autoinstall/types.js'

// A scripted world: the script's runs in order, an environment as a package list, and a log of what was done.
const failing = (name: string): ScriptRun => ({ exitCode: 1, outcome: { kind: 'uncaught', text: `missing ${name}` }, output: { stderr: '', all: '' } })
const ok: ScriptRun = { exitCode: 0, outcome: { kind: 'clean' }, output: { stderr: '', all: '' } }
const module = (name: string): MissingModule => ({ ecosystem: 'python', reported: name, name, evidence: [`import ${name}`] })
const reviewed = (name: string, extra: Partial<Choice> = {}): Choice => ({ module: module(name), candidate: { tier: 'allowlist', package: `pkg-${name}`, why: 'reviewed', verifyModule: name }, ...extra })

interface WorldOptions {
  runs: ScriptRun[]
  choices?: Choice[]
  installed?: Record<string, string>
  installs?: Record<string, string>
  installOk?: boolean
  verifyOk?: boolean
  placement?: Placement
  answer?: Answer | { interrupted: 'SIGINT' | 'SIGTERM' }
  target?: boolean
}

function world(options: WorldOptions, settings: Partial<RepairSettings> = {}) {
  const log: string[] = []
  const said: string[] = []
  const packages = { ...options.installed }
  const runs = [...options.runs]
  const target: Target = {
    ecosystem: 'python',
    failure: async (outcome) => outcome.kind === 'uncaught' ? { kind: 'missing', module: module(outcome.text.replace('missing ', '')) } : undefined,
    gather: async missing => options.choices ?? [reviewed(missing.name)],
    place: async () => options.placement ?? { kind: 'own' },
    plan: wanted => ({ argv: ['pip', 'install', ...wanted.map(item => item.requirement)], command: `pip install ${wanted.map(item => item.requirement).join(' ')}`, environment: '/v/bin/python' }),
    snapshot: async () => ({ ...packages }),
    verify: async () => ({ ok: options.verifyOk ?? true, detail: options.verifyOk === false ? 'it comes from other' : undefined }),
    rollback: async added => { log.push(`remove ${added.join(' ')}`); for (const name of added) delete packages[name]; return { ok: true, command: `uninstall ${added.join(' ')}` } },
    useVirtualEnvironment: async dir => { log.push(`venv ${dir}`); return { ok: true, python: `${dir}/bin/python` } },
  }
  const deps: RepairDeps = {
    target: options.target === false ? undefined : target,
    unknownEnvironment: { reason: '`uv run` chooses the environment itself', hint: 'resilient run -- .venv/bin/python app.py' },
    runScript: async () => { log.push('run'); return runs.shift() ?? ok },
    rerunScript: async command => { log.push(`rerun ${command.join(' ')}`); return runs.shift() ?? ok },
    describeIndex: () => 'http://index.test/simple',
    ask: async (_lines, question) => { log.push(`ask ${question.message}`); return options.answer ?? question.default },
    preview: async plan => { log.push(`preview ${plan.command}`) },
    install: async plan => {
      log.push(plan.command)
      Object.assign(packages, options.installs ?? Object.fromEntries(plan.argv.slice(2).map(name => [name, '1.0'])))
      return options.installOk === false ? { ok: false, reason: 'index down', exitCode: 1 } : { ok: true }
    },
    record: async entry => { log.push(`record ${entry.package} ${entry.version}`) },
    say: message => { said.push(message) },
  }
  const full: RepairSettings = { autoInstall: true, maxAutoInstalls: 10, yes: true, interactive: false, allowGlobal: false, installOnly: false, dryRun: false, command: ['python3', 'app.py'], interpreterAt: 0, cwd: '/p', ...settings }
  return { run: () => repairScript(full, deps), log, said, packages }
}

describe('repairScript', () => {
  it('installs every missing package in one command, records them, and runs the script again once', async () => {
    const { run, log, said } = world({ runs: [failing('yaml'), ok], choices: [reviewed('yaml'), reviewed('cv2')] })
    expect(await run()).toMatchObject({ exitCode: 0, runs: 2, autoInstalled: [{ package: 'pkg-yaml', version: '1.0' }, { package: 'pkg-cv2' }] })
    expect(log).toEqual(['run', 'pip install pkg-yaml pkg-cv2', 'record pkg-yaml 1.0', 'record pkg-cv2 1.0', 'rerun python3 app.py'])
    expect(said).toContain('running the command again from the start')
  })

  it('passes the script\'s exit code through when its final error is not a missing module, and runs it once', async () => {
    const { run, log } = world({ runs: [{ ...failing('x'), exitCode: 7, outcome: { kind: 'clean' } }] })
    expect(await run()).toMatchObject({ exitCode: 7, runs: 1, autoInstalled: [] })
    expect(log).toEqual(['run'])
  })

  it('runs once with auto-install off, and never after an interrupt', async () => {
    expect(await world({ runs: [failing('yaml')] }, { autoInstall: false }).run()).toMatchObject({ exitCode: 1, runs: 1 })
    expect(await world({ runs: [{ ...failing('yaml'), exitCode: 130, interrupted: 'SIGINT' }] }).run()).toMatchObject({ exitCode: 130, runs: 1 })
  })

  it('runs again only once: a module still missing after the install is reported, not installed', async () => {
    const { run, log } = world({ runs: [failing('yaml'), failing('dynamic')] })
    expect(await run()).toMatchObject({ exitCode: 1, runs: 2, stopReason: expect.stringMatching(/still cannot import "dynamic" after the install; resilient runs a command again only once/) })
    expect(log.filter(line => line.startsWith('pip'))).toHaveLength(1)
  })

  it('with --install-only, installs and does not run again', async () => {
    const { run, log } = world({ runs: [failing('yaml')] }, { installOnly: true })
    expect(await run()).toMatchObject({ exitCode: 0, runs: 1 })
    expect(log.at(-1)).toBe('record pkg-yaml 1.0')
  })

  it('with --dry-run, runs the script once and shows the install without running it', async () => {
    const { run, log, said } = world({ runs: [failing('yaml')] }, { dryRun: true })
    expect(await run()).toMatchObject({ exitCode: 1, runs: 1 })
    expect(log).toEqual(['run', 'preview pip install pkg-yaml'])
    expect(said.join('\n')).toMatch(/would install, in one command:[\s\S]*pkg-yaml/)
    // One line each: a reporter prints a line's own newline as a literal \n.
    expect(said.every(line => !line.includes('\n'))).toBe(true)
  })

  it('keeps the script\'s own status when it could not ask (no terminal, no --yes), 77 when the person declined', async () => {
    const script = { ...failing('yaml'), exitCode: 3 }
    expect(await world({ runs: [script] }, { yes: false }).run()).toMatchObject({ exitCode: 3, stopReason: expect.stringMatching(/no terminal to ask in/) })
    expect(await world({ runs: [script] }, { maxAutoInstalls: 0 }).run()).toMatchObject({ exitCode: 3, stopReason: expect.stringMatching(/maxAutoInstalls is 0/) })
    const declined = world({ runs: [failing('yaml')], answer: 'none' }, { yes: false, interactive: true })
    expect(await declined.run()).toMatchObject({ exitCode: 77, stopReason: expect.stringMatching(/you declined/) })
    expect(declined.log).toEqual(['run', 'ask Install pkg-yaml and run the command again?'])
  })

  it('exits with the signal\'s code when the question is interrupted', async () => {
    expect((await world({ runs: [failing('yaml')], answer: { interrupted: 'SIGINT' } }, { yes: false, interactive: true }).run()).exitCode).toBe(130)
    expect((await world({ runs: [failing('yaml')], answer: { interrupted: 'SIGTERM' } }, { yes: false, interactive: true }).run()).exitCode).toBe(143)
  })

  it('removes only what the failed install added, and exits 69', async () => {
    const { run, log, packages } = world({ runs: [failing('yaml')], installed: { userpkg: '2.0' }, installs: { 'pkg-yaml': '1.0', dependency: '3.0' }, installOk: false })
    expect(await run()).toMatchObject({ exitCode: 69, stopReason: expect.stringMatching(/install failed: index down; removed what this run added \(pkg-yaml, dependency/) })
    expect(log).toContain('remove pkg-yaml dependency')
    expect(packages).toEqual({ userpkg: '2.0' })
  })

  it('never removes what was there before: a failed check after "already satisfied" undoes nothing', async () => {
    const { run, log, packages } = world({ runs: [failing('distutils')], installed: { 'pkg-distutils': '65.0' }, installs: {}, verifyOk: false })
    expect(await run()).toMatchObject({ exitCode: 69, autoInstalled: [], stopReason: expect.stringMatching(/nothing was installed, so there is nothing to undo/) })
    expect(log.some(line => line.startsWith('remove'))).toBe(false)
    expect(packages).toEqual({ 'pkg-distutils': '65.0' })
  })

  it('records nothing and says so when everything was already installed', async () => {
    const { run, log, said } = world({ runs: [failing('mpl_toolkits.basemap')], installed: { 'pkg-mpl_toolkits.basemap': '3.0' }, installs: {} })
    expect(await run()).toMatchObject({ exitCode: 69, autoInstalled: [], stopReason: expect.stringMatching(/Nothing was installed: everything asked for was already there/) })
    expect(log.some(line => line.startsWith('record'))).toBe(false)
    expect(said).toContain('nothing installed for pkg-mpl_toolkits.basemap: already installed')
  })

  it('refuses the failing module before anything else, and leaves refused scan results out of the install', async () => {
    const refused: Choice = { module: module('request'), candidate: { tier: 'refused', reason: 'a typosquat', hint: 'Did you mean requests?' } }
    expect(await world({ runs: [failing('request')], choices: [refused] }).run()).toMatchObject({ exitCode: 1, runs: 1, stopReason: expect.stringMatching(/will not install it: a typosquat/) })
    const { run, log } = world({ runs: [failing('yaml'), ok], choices: [reviewed('yaml'), refused, reviewed('cv2', { declared: { origin: 'pyproject.toml', unusable: 'it is declared from git' } })] })
    await run()
    expect(log).toContain('pip install pkg-yaml')
  })

  it('installs the declared version', async () => {
    const { run, log } = world({ runs: [failing('yaml'), ok], choices: [reviewed('yaml', { declared: { requirement: 'pkg-yaml==5.4.1', origin: 'requirements.txt:1' } })], installs: { 'pkg-yaml': '5.4.1' } })
    expect(await run()).toMatchObject({ autoInstalled: [{ version: '5.4.1', declaredIn: 'requirements.txt:1' }] })
    expect(log).toContain('pip install pkg-yaml==5.4.1')
  })

  it('keeps to maxAutoInstalls, leaving the rest out of the one install', async () => {
    const { run, log } = world({ runs: [failing('a'), ok], choices: ['a', 'b', 'c'].map(name => reviewed(name)) }, { maxAutoInstalls: 2 })
    await run()
    expect(log).toContain('pip install pkg-a pkg-b')
  })

  it('refuses a global Python on --yes alone (the script\'s status), and in a terminal can move to ./.venv and re-run with it', async () => {
    const placement: Placement = { kind: 'global', prefix: '/usr', externallyManaged: true }
    expect(await world({ runs: [failing('yaml')], placement }).run()).toMatchObject({ exitCode: 1, runs: 1, stopReason: expect.stringMatching(/PEP 668/) })
    const { run, log } = world({ runs: [failing('yaml'), ok], placement, answer: 'venv' }, { interactive: true, command: ['env', 'python3', 'app.py'], interpreterAt: 1 })
    expect(await run()).toMatchObject({ exitCode: 0, command: ['env', '/p/.venv/bin/python', 'app.py'] })
    expect(log).toEqual(['run', 'ask This Python is not a virtual environment. What should resilient do?', 'venv /p/.venv', 'pip install pkg-yaml', 'record pkg-yaml 1.0', 'rerun env /p/.venv/bin/python app.py'])
  })

  it('says honestly that it cannot see the environment of a runner', async () => {
    const { run } = world({ runs: [{ exitCode: 1, outcome: { kind: 'absent' }, output: { stderr: "Traceback (most recent call last):\n  File \"app.py\", line 1\n    import yaml\nModuleNotFoundError: No module named 'yaml'\n", all: '' } }], target: false })
    const result = await run()
    expect(result.stopReason).toMatch(/cannot import "yaml", and resilient installs nothing: `uv run` chooses the environment itself/)
    expect(result.stopReason).not.toMatch(/cannot fix/)
  })

  it('says why in one line, and what to do on a line of its own (never a literal \\n)', async () => {
    const { run, said } = world({ runs: [failing('yaml'), failing('toml')] })
    await run()
    expect(said.slice(-2)).toEqual(['The script still cannot import "toml" after the install; resilient runs a command again only once.', 'Install the rest yourself, then run the command again.'])
    expect(said.some(line => line.includes('\\n') || line.includes('\n'))).toBe(false)
  })
})
