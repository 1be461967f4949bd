import { npmFamily } from './npm-subject.js'
import { pip } from './pip-subject.js'
import type { Subject } from './subject.js'

export type { IndexServer, Role, Subject, Want } from './subject.js'

/** The tools the matrix runs. What differs between them lives in pip-subject.ts and npm-subject.ts. */
export const SUBJECTS = {
  pip,
  npm: npmFamily('npm', { add: (registry, spec) => ['npm', 'install', spec, `--registry=${registry}`, '--no-audit', '--no-fund'],
    ci: registry => ['npm', 'ci', `--registry=${registry}`, '--no-audit', '--no-fund'], trust: (certificates, clientCertificate) => {
      // npm takes a client certificate's PEM text in its config (cert, key), not a file: no case asks for it.
      if (clientCertificate) throw new Error('npm: no client certificate case')
      return [`--cafile=${certificates.server}`]
    }, ownTimeout: ['--fetch-timeout=3000', '--fetch-retries=0'], scope: 'environment' }),
  pnpm: npmFamily('pnpm', { add: (registry, spec) => ['pnpm', 'add', spec, `--registry=${registry}`], ownTimeout: ['--fetch-timeout=3000', '--fetch-retries=0'], scope: 'npmrc' }),
  yarn: npmFamily('yarn', { add: (registry, spec) => ['yarn', 'add', spec, '--registry', registry], ownTimeout: ['--network-timeout', '3000'], scope: 'npmrc' }),
} satisfies Record<Subject['tool'], Subject>
