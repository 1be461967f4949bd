import { firstCapture, linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// A native addon failed to compile (node-gyp) or a package's install script failed (npm 7+ names the script it ran:
// `command sh -c <script>`). Network errors inside the script (a binary download behind a TLS-inspecting proxy) are
// read by the network rules first.
const BUILD = /gyp ERR!|^command sh -c |\bELIFECYCLE\b|couldn't be built successfully|node-gyp rebuild|Failed at the \S+ install script|install script '[^'\n]{1,100}'|weird error \d|Command failed\.\s*$/

export const npmBuildFailure = {
  id: 'npm-build-failure',
  category: 'build_failure',
  tools: ['npm', 'pnpm', 'yarn', 'yarn-berry', 'bun'],
  summary: "A package's native build or install script failed",
  match: failure => {
    const evidence = linesMatching(failure, BUILD, 3)
    if (!evidence.length) return null
    const name = firstCapture(failure.lines, /Failed at the (\S+) install script|gyp ERR! cwd \S*node_modules\/(\S+)/)
    return { evidence, facts: { package: name }, summary: name ? `The native build or install script of ${name} failed` : undefined }
  },
} satisfies Rule
