import { execa, type Options } from 'execa'
import { fileURLToPath } from 'node:url'
import { isolatedEnv } from './isolated-env.js'

export const CLI = fileURLToPath(new URL('../../bin/resilient.js', import.meta.url))

/** Runs the *built* CLI as a user would, in an isolated environment; never rejects. */
export function runCli(args: string[], options: Options & { env?: Record<string, string> } = {}) {
  return execa('node', [CLI, ...args], { reject: false, all: true, stdin: 'ignore', timeout: 120_000, ...options, env: options.env ?? isolatedEnv(), extendEnv: false })
}
