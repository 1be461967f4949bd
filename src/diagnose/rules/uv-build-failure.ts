import { firstCapture, linesMatching } from '../evidence.js'
import { UV_FAMILY } from '../tool-families.js'
import type { Rule } from '../types.js'

// uv and pixi (which builds PyPI sdists with uv): "Failed to build `x`", "The build backend returned an error",
// "Call to `setuptools.build_meta.build_wheel` failed", early uv's "Build backend failed to determine metadata".
const BUILD = /Failed to build[: ]`?[\w.-]|Failed to (?:download and )?build[: ]|The build backend returned an error|Build backend failed|Call to `[^`\n]{1,200}` failed|build_wheel` failed/

export const uvBuildFailure = {
  id: 'uv-build-failure',
  category: 'build_failure',
  tools: UV_FAMILY,
  summary: 'Building a package from source failed',
  match: failure => {
    const evidence = linesMatching(failure, BUILD, 3)
    if (!evidence.length) return null
    const name = firstCapture(evidence, /build[: ] ?`([^`\n]{1,200})`|build: (\S+)/)
    return { evidence, facts: { package: name?.split(/[=@ ]/)[0] }, summary: name ? `Building ${name} from source failed` : undefined }
  },
} satisfies Rule
