import { firstCapture, linesMatching } from '../evidence.js'
import { YARN_FAMILY } from '../tool-families.js'
import type { Rule } from '../types.js'

// yarn classic: `The engine "node" is incompatible with this module. Expected version ">=5.8.0".`
export const yarnIncompatibleEngine = {
  id: 'yarn-incompatible-engine',
  category: 'python_version',
  tools: YARN_FAMILY,
  summary: 'A package needs another Node.js version',
  match: failure => {
    const evidence = linesMatching(failure, /The engine "[\w-]{1,40}" is incompatible with this module|Found incompatible module/, 2)
    if (!evidence.length) return null
    const name = firstCapture(evidence, /^(?:error )?(\S+?): The engine/)
    return { evidence, facts: { package: name }, summary: name ? `${name} needs another Node.js version` : undefined }
  },
  remedy: { kind: 'give-up', hint: 'Switch to the Node.js version the package expects (nvm install <version>), pin an older release, or run yarn with --ignore-engines if you know it works.' },
} satisfies Rule
