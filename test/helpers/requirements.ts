import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { describe, inject, it } from 'vitest'
import { which } from '../../src/tools/argv/which.js'

/**
 * Something a test needs from the machine. `installedBy` says how CI gets it: such a requirement must be met under
 * CI (a missing one fails the file, so a suite of the real tool can never pass by not running); without it the
 * requirement is optional (a Python of pyenv, node-pty on a machine without a compiler) and tests skip, saying why.
 */
export interface Requirement {
  readonly name: string
  readonly available: boolean
  readonly installedBy?: string
}

export type Verdict = { kind: 'run' } | { kind: 'skip'; reason: string } | { kind: 'fail'; reason: string }

/** What to do with tests that need `requirements`, on CI or not. Pure, for the unit test. */
export function verdictFor(requirements: readonly Requirement[], onCI: boolean): Verdict {
  const missing = requirements.filter(requirement => !requirement.available)
  if (missing.length === 0) return { kind: 'run' }
  const required = missing.filter(requirement => requirement.installedBy)
  if (onCI && required.length > 0) {
    const reason = required.map(requirement => `${requirement.name} is missing; CI must have it (${requirement.installedBy})`).join('; ')
    return { kind: 'fail', reason }
  }
  return { kind: 'skip', reason: missing.map(requirement => `${requirement.name} is not available here${requirement.installedBy ? ` (on CI: ${requirement.installedBy})` : ''}`).join('; ') }
}

declare module 'vitest' {
  export interface ProvidedContext { onCI: boolean }
}

/** Set by vitest.config.ts from the runner's own environment (test/setup.ts removes CI from the workers'). */
export const ON_CI = inject('onCI')

type Needs = Requirement | readonly Requirement[]
const list = (needs: Needs): readonly Requirement[] => 'name' in needs ? [needs as Requirement] : needs as readonly Requirement[]

/** `describe` that runs only when `needs` are met: skips with a printed reason, or fails on CI. */
export function describeNeeding(needs: Needs, title: string, body: () => void): void {
  const verdict = verdictFor(list(needs), ON_CI)
  if (verdict.kind === 'run') return void describe(title, body)
  if (verdict.kind === 'fail') return void describe(title, () => it(`needs ${list(needs).map(need => need.name).join(', ')}`, () => { throw new Error(verdict.reason) }))
  console.warn(`skipping "${title}": ${verdict.reason}`)
  describe.skip(title, body)
}

/** `it` that runs only when `needs` are met: skips with a printed reason, or fails on CI. */
export function itNeeding(needs: Needs, title: string, body: () => unknown, timeout?: number): void {
  const verdict = verdictFor(list(needs), ON_CI)
  if (verdict.kind === 'run') return void it(title, body as () => Promise<void>, timeout)
  if (verdict.kind === 'fail') return void it(title, () => { throw new Error(verdict.reason) })
  console.warn(`skipping "${title}": ${verdict.reason}`)
  it.skip(title, body as () => Promise<void>)
}

/** Debian packages that .ci/run installs when missing, by the command they provide. */
export const FROM_CI_RUN: Record<string, string> = {
  go: 'golang-go', cargo: 'cargo', pipx: 'pipx', poetry: 'python3-poetry', pdm: 'python3-pdm',
  zsh: 'zsh', fish: 'fish', tmux: 'tmux', script: 'bsdutils', strace: 'strace',
}

/** A command on PATH. pip and npm come with the CI image's Python and Node; the others from .ci/run. */
export function command(name: string): Requirement {
  const installedBy = FROM_CI_RUN[name] ? `.ci/run installs it: apt-get install ${FROM_CI_RUN[name]}`
    : name === 'pip' ? 'the image\'s python3 with pip; .ci/run checks `python3 -m pip --version`'
    : name === 'npm' ? 'it comes with Node' : undefined
  return { name, available: Boolean(which(name, process.env)), installedBy }
}

/** pyenv itself (optional): its real `pyenv exec`, which pyenv's shims run. */
export const PYENV = join(process.env.PYENV_ROOT ?? join(homedir(), '.pyenv'), 'libexec', 'pyenv')
export const pyenvInstalled: Requirement = { name: `pyenv (${PYENV})`, available: existsSync(PYENV) }

/** A Python of pyenv (optional: CI has only its python3). */
export function pyenvPython(version: string): Requirement & { path: string } {
  const path = join(process.env.PYENV_ROOT ?? join(homedir(), '.pyenv'), 'versions', version, 'bin', 'python')
  return { name: `Python ${version} of pyenv (${path})`, available: existsSync(path), path }
}

/** Linux /proc, for the process-tree samplers (CI runs on Debian). */
export function procFs(available: boolean): Requirement {
  return { name: 'Linux /proc', available, installedBy: 'CI runs on Debian' }
}

/** Files of the machine's own Python (Debian's), optional. */
export function onDisk(name: string, ...paths: string[]): Requirement {
  return { name, available: paths.every(path => existsSync(path)) }
}
