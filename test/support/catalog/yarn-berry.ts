import { messages } from './types.js'

// yarn berry prints `➤ YN<code>: <message>` (normalisation keeps the code, drops the decorations). Read in the
// published bundle of @yarnpkg/cli-dist 4.18.1 (bin/yarn.js).
const CACHE = { repo: 'yarnpkg/berry', file: 'bin/yarn.js (the published bundle of packages/yarnpkg-core)', version: '4.18.1' }

export const YARN_BERRY = messages(CACHE, [
  ['yarn-checksum-mismatch', "YN0018: │ {package}@npm:{version}: The remote archive doesn't match the expected checksum"],
], '➤ ')
