import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkForms } from '../../../src/shims/read-only-script.js'
import { readOnlyFormsFor, SHIM_CANDIDATES } from '../../../src/shims/tool-names.js'
import { TOOLS } from '../../../src/tools/index.js'
import { mambaClassic } from '../../../src/tools/mamba.js'
import { globToRegExp, isReadOnly } from '../../../src/tools/argv/read-only.js'
import type { ReadOnlyForms, ToolAdapter } from '../../../src/tools/types.js'
import { uvx } from '../../../src/tools/uv.js'
import { yarnBerry } from '../../../src/tools/yarn-berry.js'

/** Every adapter a shim's name may turn out to be once the tool runs (resolveVariant). */
const VARIANTS: Record<string, ToolAdapter[]> = { yarn: [yarnBerry], mamba: [mambaClassic], uvx: [uvx] }
const adaptersFor = (name: string) => [
  ...(Object.values(TOOLS) as ToolAdapter[]).filter(adapter => adapter.executables.test(name)), ...(VARIANTS[name] ?? [])]

/** Words a person may type, including every spelling that makes a read-only command talk to an index or write. */
function vocabulary(forms: ReadOnlyForms): string[] {
  const words = [...forms.leadingFlags, ...forms.commands.flatMap(command => command.words)]
  return [...new Set([...words, 'install', 'add', 'set', 'get', 'list', 'run', 'build', 'numpy', '--', '-', '',
    '--outdated', '--out', '-o', '-lo', '-u', '--uptodate', '--up', '--user', '-l', '--latest', '--json', '--format=json',
    '-w', '--w=GOPROXY=x', '-w=x', '-u=x', 'GOPROXY=x', '--global', '--offline', '--registry', 'https://r.test/', '--help', '-h', '--version', '-V'])]
}

const readOnlyTools = SHIM_CANDIDATES.filter(name => readOnlyFormsFor(name))

describe('read-only forms', () => {
  it('are declared for the common tools', () => {
    expect(readOnlyTools).toEqual(expect.arrayContaining(['pip', 'pip3', 'npm', 'pnpm', 'yarn', 'bun', 'cargo', 'go', 'uv', 'conda', 'mamba', 'micromamba', 'pixi', 'poetry', 'pipx', 'pdm']))
  })

  it.each(readOnlyTools)('%s: can be written into a shim', name => {
    expect(() => checkForms(readOnlyFormsFor(name)!)).not.toThrow()
  })

  it.each(readOnlyTools)('%s: every read-only call is one resilient runs once, untouched, in every variant of the tool', name => {
    const forms = readOnlyFormsFor(name)!
    const word = fc.constantFrom(...vocabulary(forms))
    // Half random words, half a read-only command's shape with random flags before and random words after.
    const shaped = fc.tuple(fc.array(fc.constantFrom('', ...forms.leadingFlags), { maxLength: 2 }), fc.constantFrom(...forms.commands), fc.array(word, { maxLength: 3 }))
      .map(([flags, command, rest]) => [...flags.filter(Boolean), ...command.words, ...rest])
    let readOnly = 0
    fc.assert(fc.property(fc.oneof(fc.array(word, { maxLength: 5 }), shaped), args => {
      if (!isReadOnly(forms, args)) return
      readOnly++
      for (const adapter of adaptersFor(name)) expect([adapter.name, args, adapter.classify(args)]).toEqual([adapter.name, args, 'local'])
    }), { numRuns: 3000, seed: 15 })
    expect(readOnly).toBeGreaterThan(300)
  })

  it('uvx has none of uv\'s: after uvx the words name a tool to run', () => {
    expect(readOnlyFormsFor('uvx')).toBeUndefined()
    expect(readOnlyFormsFor('uv')).toBeDefined()
  })
})

describe('isReadOnly', () => {
  const _ = (name: string, line: string, expected: boolean) => () => expect(isReadOnly(readOnlyFormsFor(name)!, line.split(' ').filter(Boolean))).toBe(expected)
  it('pip --version', _('pip', '--version', true))
  it('pip --version with something after it goes through', _('pip', '--version x', false))
  it('a flag before the verb', _('pip', '--isolated list', true))
  it('several flags before the verb', _('pip', '-q --isolated -v freeze', true))
  it('a value-taking option before the verb goes through', _('pip', '--proxy http://p:3128 list', false))
  it('pip list --format json', _('pip', 'list --format json', true))
  it('pip list --outdated asks the index', _('pip', 'list --outdated', false))
  it('and so does an optparse prefix of it', _('pip', 'list --outd', false))
  it('and a short cluster holding -o', _('pip', 'list -lo', false))
  it('and -u', _('pip', 'list -u', false))
  it('pip list --user is local', _('pip', 'list --user', true))
  it('pip config get', _('pip', 'config get global.index-url', true))
  it('pip config set writes', _('pip', 'config set global.index-url x', false))
  it('pip config alone goes through', _('pip', 'config', false))
  it('pip install goes through', _('pip', 'install numpy', false))
  it('nothing at all goes through', _('pip', '', false))
  it('npm ls --json', _('npm', 'ls --json', true))
  it('npm --json ls', _('npm', '--json ls', true))
  it('npm --prefix x ls goes through (a value)', _('npm', '--prefix x ls', false))
  it('npm config set goes through', _('npm', 'config set registry x', false))
  it('npm run goes through', _('npm', 'run build', false))
  it('go env GOPROXY', _('go', 'env GOPROXY', true))
  it('go env -w writes', _('go', 'env -w GOPROXY=x', false))
  it('go env --w=x writes too', _('go', 'env --w=GOPROXY=x', false))
  it('conda info --envs', _('conda', 'info --envs', true))
  it('conda info <package> searched the channels', _('conda', 'info numpy', false))
  it('uv pip list --outdated asks the index', _('uv', 'pip list --outdated', false))
  it('yarn bare is an install', _('yarn', '', false))
})

describe('globToRegExp', () => {
  const _ = (glob: string, text: string, expected: boolean) => () => expect(globToRegExp(glob).test(text)).toBe(expected)
  it('* matches anything', _('--o*', '--outdated', true))
  it('* matches nothing', _('--o*', '--o', true))
  it('anchored', _('--o*', 'x--o', false))
  it('bracket', _('-[ou]*', '-o', true))
  it('negated bracket', _('-[!-]*[ou]*', '--out', false))
  it('negated bracket, cluster', _('-[!-]*[ou]*', '-lo', true))
  it('dots are literal', _('a.b', 'axb', false))
})
