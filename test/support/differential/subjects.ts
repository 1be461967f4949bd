import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FaultChoice } from '../../../src/demo/fault-server.js'
import { buildTarball, startNpmRegistry, type BuiltTarball } from '../npm-registry.js'
import { startPypiServer } from '../../../src/demo/pypi-server.js'
import { buildWheel, type BuiltWheel } from '../../../src/demo/wheel.js'

/** One index server of a case: its URL as the tool takes it, its request log, and how to stop it. */
export interface IndexServer {
  url: string
  requests: string[]
  close(): Promise<void>
}

/**
 * A tool the matrix runs, and what it installs: two versions of one small package (the newer one is what a lagging
 * mirror lacks), large enough that a trickle or a broken download takes a visible part of the run.
 */
export interface Subject {
  tool: 'pip' | 'npm' | 'pnpm' | 'yarn'
  ecosystem: 'pypi' | 'npm'
  /** The package page the tool asks for first: where a fault on "the project page" applies. */
  page: string
  /** Bytes of the file it downloads, for a trickle that lasts a few seconds. */
  fileBytes: number
  start(options: { fault?: FaultChoice; lacksNewest?: boolean }): Promise<IndexServer>
  /** The command and its working directory (prepared in `workdir`), with the index given as the person gives it. */
  command(index: string, workdir: string, options: { newest: boolean; extra: readonly string[] }): string[]
  /** The tool's own timeout and retries, set as the person would: short, so that a hang fails in seconds. */
  ownTimeout: readonly string[]
}

/** Deterministic incompressible text: a tarball that gzip cannot shrink to nothing. */
function noise(bytes: number): string {
  let state = 0x2545f491
  let text = ''
  while (text.length < bytes) {
    state ^= state << 13; state ^= state >>> 17; state ^= state << 5
    text += (state >>> 0).toString(36)
  }
  return text.slice(0, bytes)
}

let wheels: BuiltWheel[] | undefined
let tarballs: BuiltTarball[] | undefined
const pyPackages = () => (wheels ??= ['1.0', '2.0'].map(version => buildWheel('demo-pkg', version, { paddingBytes: 100_000 })))
const npmPackages = () => (tarballs ??= ['1.0.0', '2.0.0'].map(version => buildTarball({ name: 'left-pad-x', version, files: { 'data.txt': noise(120_000) } })))

const pip: Subject = {
  tool: 'pip',
  ecosystem: 'pypi',
  page: '/simple/demo-pkg/',
  fileBytes: 100_000,
  start: async ({ fault, lacksNewest }) => startPypiServer({ wheels: pyPackages(), fault, missing: lacksNewest ? ['demo-pkg==2.0'] : [] }),
  command: (index, workdir, { newest, extra }) => ['python3', '-m', 'pip', 'download', '--no-deps', '-d', join(workdir, 'wheels'), '--index-url', index, ...extra, newest ? 'demo-pkg==2.0' : 'demo-pkg==1.0'],
  ownTimeout: ['--timeout', '3', '--retries', '0'],
}

/** A project folder with a package.json, as npm, pnpm and yarn install into. */
function nodeProject(workdir: string): void {
  mkdirSync(workdir, { recursive: true })
  writeFileSync(join(workdir, 'package.json'), JSON.stringify({ name: 'differential', version: '1.0.0', private: true }))
}

const npmFamily = (tool: 'npm' | 'pnpm' | 'yarn', command: (registry: string, spec: string) => string[], ownTimeout: readonly string[]): Subject => ({
  tool,
  ecosystem: 'npm',
  page: '/left-pad-x',
  fileBytes: 90_000,
  start: ({ fault, lacksNewest }) => startNpmRegistry({ packages: npmPackages(), fault, missing: lacksNewest ? ['left-pad-x@2.0.0'] : [] }),
  command: (registry, workdir, { newest, extra }) => {
    nodeProject(workdir)
    return [...command(registry, `left-pad-x@${newest ? '2.0.0' : '1.0.0'}`), ...extra]
  },
  ownTimeout,
})

export const SUBJECTS = {
  pip,
  npm: npmFamily('npm', (registry, spec) => ['npm', 'install', spec, `--registry=${registry}`, '--no-audit', '--no-fund'], ['--fetch-timeout=3000', '--fetch-retries=0']),
  pnpm: npmFamily('pnpm', (registry, spec) => ['pnpm', 'add', spec, `--registry=${registry}`], ['--fetch-timeout=3000', '--fetch-retries=0']),
  yarn: npmFamily('yarn', (registry, spec) => ['yarn', 'add', spec, '--registry', registry], ['--network-timeout', '3000']),
} satisfies Record<Subject['tool'], Subject>
