import { spawnSync } from 'node:child_process'

/**
 * A second local account, to check that what resilient writes cannot be read or planted by another user. Created
 * with `useradd` when the tests run as root (CI does), else undefined with the reason printed: the tests that need
 * it are then skipped, never faked.
 */
export const SECOND_USER = 'resilient-t2'

export function secondUser(): string | undefined {
  if (process.getuid?.() !== 0) {
    process.stderr.write('second-user tests skipped: they need root to create a local account (useradd)\n')
    return undefined
  }
  const exists = spawnSync('id', [SECOND_USER], { stdio: 'ignore' }).status === 0
  if (!exists && spawnSync('useradd', ['--system', '--no-create-home', '--shell', '/bin/sh', SECOND_USER], { stdio: 'ignore' }).status !== 0) {
    process.stderr.write('second-user tests skipped: useradd failed\n')
    return undefined
  }
  return SECOND_USER
}

/** Runs a shell command as the second user; its exit status and output. */
export function asSecondUser(command: string): { status: number | null; output: string } {
  const result = spawnSync('runuser', ['-u', SECOND_USER, '--', 'sh', '-c', command], { encoding: 'utf8', timeout: 10_000 })
  return { status: result.status, output: `${result.stdout}${result.stderr}` }
}
