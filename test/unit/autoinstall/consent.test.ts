import { describe, expect, it } from 'vitest'
import { decideConsent, type ConsentSettings } from '../../../src/autoinstall/consent.js'
import { describeProposal } from '../../../src/autoinstall/proposal.js'
import type { Placement, Wanted } from '../../../src/autoinstall/types.js'

const wanted = (name: string, tier: 'allowlist' | 'proposed', declared?: string): Wanted => ({
  module: { ecosystem: 'python', reported: name, name, evidence: [`import ${name}`] },
  candidate: { tier, package: `pkg-${name}`, why: `import ${name} → pkg-${name} (${tier})`, verifyModule: name },
  requirement: declared ?? `pkg-${name}`,
  declared: declared ? { requirement: declared, origin: 'requirements.txt:1' } : undefined,
})
const own: Placement = { kind: 'own' }
const global: Placement = { kind: 'global', prefix: '/opt/python', externallyManaged: false }
const managed: Placement = { kind: 'global', prefix: '/usr', externallyManaged: true }
const settings = (overrides: Partial<ConsentSettings> = {}): ConsentSettings => ({ yes: false, interactive: true, allowGlobal: false, canUseVenv: true, installOnly: false, ...overrides })
const reviewed = [wanted('yaml', 'allowlist'), wanted('cv2', 'allowlist')]

describe('decideConsent: one question for the whole install', () => {
  it('asks once in a terminal, default yes for reviewed names, and says the command runs again', () => {
    expect(decideConsent(reviewed, own, settings())).toEqual({ kind: 'ask', question: { message: 'Install these 2 packages and run the command again?', choices: [{ value: 'all', name: 'Yes' }, { value: 'none', name: 'No' }], default: 'all' } })
    expect(decideConsent(reviewed.slice(0, 1), own, settings({ installOnly: true }))).toMatchObject({ question: { message: 'Install pkg-yaml?' } })
  })

  it('defaults to no as soon as one name is not reviewed, even with --yes', () => {
    const mixed = [...reviewed, wanted('humanize', 'proposed')]
    expect(decideConsent(mixed, own, settings())).toMatchObject({ kind: 'ask', question: { default: 'none' } })
    expect(decideConsent(mixed, own, settings({ yes: true }))).toMatchObject({ kind: 'ask', question: { default: 'none' } })
  })

  it('installs reviewed names with --yes without asking', () => {
    expect(decideConsent(reviewed, own, settings({ yes: true }))).toEqual({ kind: 'install', how: 'yes-flag', wanted: reviewed, left: [] })
  })

  it('without a terminal: needs --yes, and then installs reviewed names only', () => {
    expect(decideConsent(reviewed, own, settings({ interactive: false }))).toMatchObject({ kind: 'stop', code: 'needs-terminal', reason: expect.stringMatching(/no terminal to ask in: add --yes/) })
    const proposed = wanted('humanize', 'proposed')
    expect(decideConsent([proposed, ...reviewed], own, settings({ interactive: false, yes: true }))).toMatchObject({ kind: 'stop', code: 'needs-terminal', reason: expect.stringMatching(/--yes covers reviewed names only/) })
    expect(decideConsent([...reviewed, proposed], own, settings({ interactive: false, yes: true }))).toMatchObject({ kind: 'install', wanted: reviewed, left: [{ wanted: proposed }] })
  })

  it('never changes a global Python on --yes alone', () => {
    expect(decideConsent(reviewed, global, settings({ interactive: false, yes: true }))).toMatchObject({ kind: 'stop', code: 'declined', reason: expect.stringMatching(/not a virtual environment.*--allow-global \(--yes alone does not\)/) })
    expect(decideConsent(reviewed, global, settings({ interactive: false, yes: true, allowGlobal: true }))).toMatchObject({ kind: 'install' })
    expect(decideConsent(reviewed, global, settings({ allowGlobal: true }))).toMatchObject({ kind: 'ask', question: { message: 'Install these 2 packages into /opt/python and run the command again?' } })
  })

  it('offers a virtual environment, the global Python, or nothing, in a terminal; default nothing', () => {
    const decision = decideConsent(reviewed, global, settings({ yes: true }))
    expect(decision).toMatchObject({ kind: 'ask', question: { default: 'none' } })
    expect(decision.kind === 'ask' && decision.question.choices.map(choice => choice.value)).toEqual(['venv', 'global', 'none'])
    const noVenv = decideConsent(reviewed, global, settings({ canUseVenv: false }))
    expect(noVenv.kind === 'ask' && noVenv.question.choices.map(choice => choice.value)).toEqual(['global', 'none'])
  })

  it('follows PEP 668: never the OS-managed Python, even with --allow-global; a venv only if the re-run can use it', () => {
    const decision = decideConsent(reviewed, managed, settings({ allowGlobal: true }))
    expect(decision.kind === 'ask' && decision.question.choices.map(choice => choice.value)).toEqual(['venv', 'none'])
    expect(decideConsent(reviewed, managed, settings({ canUseVenv: false, allowGlobal: true }))).toMatchObject({ kind: 'stop', code: 'declined', reason: expect.stringMatching(/PEP 668/) })
    expect(decideConsent(reviewed, managed, settings({ interactive: false, yes: true, allowGlobal: true }))).toMatchObject({ kind: 'stop', code: 'declined' })
  })
})

describe('describeProposal', () => {
  it('lists every package with its version and why, where, the index, the command, the re-run and a warning', () => {
    const lines = describeProposal(reviewed[0]!.module, [wanted('yaml', 'allowlist', 'PyYAML==5.4.1'), wanted('humanize', 'proposed')],
      [{ module: { ecosystem: 'python', reported: 'utils', name: 'utils', evidence: [] }, reason: 'a local name' }],
      { argv: [], command: '/v/bin/python -m pip install PyYAML==5.4.1 pkg-humanize', environment: '/v/bin/python', index: 'http://127.0.0.1/simple' }, true).join('\n')
    expect(lines).toMatch(/cannot import "yaml":\n    import yaml\n/)
    expect(lines).toMatch(/PyYAML==5.4.1 \(already declared in requirements.txt:1\) for "yaml"/)
    expect(lines).toMatch(/pkg-humanize \(the newest on the index\) for "humanize"  NOT REVIEWED/)
    expect(lines).toMatch(/nothing for "utils": a local name/)
    expect(lines).toMatch(/into: +\/v\/bin\/python\n  index: +http:\/\/127.0.0.1\/simple\n  command: +\/v\/bin\/python -m pip install/)
    expect(lines).toMatch(/runs again from the start/)
    expect(lines).toMatch(/someone else's code/)
  })
})
