import { describeRelayedTool } from '../helpers/relay-npm-family.js'

// pnpm 11 and 12 through the relay, beside pnpm 10's every case (relay-pnpm.e2e.test.ts): the cases where a major
// may differ, with the real binaries of test/tools (`npm run test:tools`). pnpm 11 reads its user npmrc from
// pnpm_config_userconfig before npm_config_userconfig (@pnpm/config reader getNpmrcAuthFile), pnpm 12 likewise.
for (const tool of ['pnpm11', 'pnpm12'] as const) {
  describeRelayedTool({
    tool,
    install: ['pnpm', 'install'],
    plain: registry => ({ argv: ['pnpm', 'install', `--registry=${registry}`], env: {} }),
    lockfile: 'pnpm-lock.yaml',
    files: 'relay',
    token: index => ({ files: { '.npmrc': `${index.replace(/^http:/, '')}:_authToken=the-person-s-token\n` } }),
    essential: true,
    userNpmrcVariable: 'pnpm_config_userconfig',
  })
}
