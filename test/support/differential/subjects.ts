import { join } from 'node:path'
import { cargo } from './cargo-subject.js'
import { go } from './go-subject.js'
import { npmFamily } from './npm-subject.js'
import { pip } from './pip-subject.js'
import { pdm, pipx, poetry } from './python-app-subjects.js'
import type { Subject } from './subject.js'

export type { IndexServer, Role, Subject, Want } from './subject.js'

/**
 * The tools the matrix runs (`yarn`: yarn 1; `berry`: yarn 2 and later, also typed `yarn`). What differs between them
 * lives in pip-subject.ts, npm-subject.ts, cargo-subject.ts, go-subject.ts and python-app-subjects.ts.
 */
export const SUBJECTS = {
  pip,
  npm: npmFamily('npm', { add: (registry, spec) => ['npm', 'install', spec, `--registry=${registry}`, '--no-audit', '--no-fund'],
    ci: registry => ['npm', 'ci', `--registry=${registry}`, '--no-audit', '--no-fund'], trust: (certificates, clientCertificate) => {
      // npm takes a client certificate's PEM text in its config (cert, key), not a file: no case asks for it.
      if (clientCertificate) throw new Error('npm: no client certificate case')
      return { args: [`--cafile=${certificates.server}`] }
    }, ownTimeout: ['--fetch-timeout=3000', '--fetch-retries=0'], scope: 'environment' }),
  pnpm: npmFamily('pnpm', { add: (registry, spec) => ['pnpm', 'add', spec, `--registry=${registry}`], ownTimeout: ['--fetch-timeout=3000', '--fetch-retries=0'], scope: 'npmrc',
    shortRetryWaits: ['--fetch-retry-mintimeout=1000', '--fetch-retry-maxtimeout=2000'] }),
  // yarn 1 and bun write each tarball's URL into their lockfiles, so the relay keeps the index's URLs and their
  // tarballs do not go through it (docs/relay.md, "pnpm, yarn and bun").
  // yarn 1's cache is machine-wide for root (/usr/local/share/.cache/yarn), not under HOME: one of the run's own, or
  // the matrix's tarballs (the same bytes every run) come from an earlier run's cache and no download is judged.
  // yarn 1's request manager (src/util/request-manager.js) asks again after a 408, a 5xx, a reset or a timeout only,
  // once a fixed 3 s timer fires (initOfflineRetry); a 429 or a refused connection is final.
  yarn: npmFamily('yarn', { add: (registry, spec) => ['yarn', 'add', spec, '--registry', registry], ownTimeout: ['--network-timeout', '3000'], scope: 'npmrc',
    env: (_registry, workdir) => ({ YARN_CACHE_FOLDER: join(workdir, 'yarn-cache') }),
    notWon: {
      'one-503': 'yarn 1 asks again after a 503 once a fixed 3 s timer fires (initOfflineRetry, its src/util/request-manager.js): plain yarn 1 takes its run plus 3 s, about 4 s; the relay asks the index again at once, so resilient takes its own run through the relay, 1 to 2 s on a quiet machine: at most half only while resilient\'s start (its process, the relay) adds less than about 1 s, which a loaded machine stretches',
      'break-80': 'yarn 1 downloads each tarball from the URL it writes into yarn.lock, the index\'s: the relay carries its packuments only, so a broken download is yarn\'s own to retry',
    } }),
  // berry has no registry flag: the index is YARN_NPM_REGISTRY_SERVER. On https with its CA file, as a public index
  // is: a plain-http one needs unsafeHttpWhitelist, with which the relay steps aside (src/tools/relay/yarn-berry-relay.ts).
  // Installed into node_modules, with a cache of the project's own, no telemetry, the lockfile written (not CI's immutable).
  berry: npmFamily('berry', { add: (_registry, spec) => ['yarn', 'add', spec], https: true, env: registry => ({
    YARN_NPM_REGISTRY_SERVER: registry.replace(/\/$/, ''),
    YARN_NODE_LINKER: 'node-modules', YARN_ENABLE_GLOBAL_CACHE: 'false', YARN_ENABLE_TELEMETRY: '0', YARN_ENABLE_IMMUTABLE_INSTALLS: 'false',
  }), trust: (certificates, clientCertificate) => {
    if (clientCertificate) throw new Error('berry: no client certificate case')
    return { env: { YARN_HTTPS_CA_FILE_PATH: certificates.server } }
  }, ownTimeout: [], scope: 'yarnrc',
    notWon: { 'one-503': 'berry asks again itself after a 503, in a run of about 3 s, and resilient\'s first run with yarn asks `yarn --version` to tell yarn 1 from berry (about 2 s for berry here; a person\'s later runs keep the answer)' } }),
  // bun documents no timeout of its own for a registry request.
  bun: npmFamily('bun', { add: (registry, spec) => ['bun', 'add', spec, `--registry=${registry}`], ownTimeout: [], scope: 'npmrc',
    notWon: { 'one-503': 'bun asks again itself at once and completes in 0.1 to 0.3 s: resilient\'s own start takes longer than that', 'break-80': 'bun writes each tarball\'s URL into bun.lock and fetches a new resolution\'s tarballs from the index itself: a broken download is bun\'s own to retry, from its first byte' } }),
  cargo,
  go,
  pipx,
  pdm,
  poetry,
} satisfies Record<Subject['tool'], Subject>
